// object_requests.cpp: the requests without a streamed upload: GetObject (streamed to a sink, checksum mode
// enabled and the full-object checksum verified), CreateBucket and DeleteObject, each in the retry loop.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "client/client_impl.h"
#include "client/s3_error.h"
#include "client/validation.h"
#include "s3up/client.h"

namespace s3up {

Result<GetObjectResult> Client::get_object(std::string_view bucket, std::string_view key,
                                           const std::function<void(std::span<const std::byte>)>& sink) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_bucket(bucket)) return *error;
  if (auto error = validate_key(key)) return *error;

  const RequestTarget target = impl.target(bucket, key);
  const std::string operation = "GET s3://" + std::string(bucket) + "/" + std::string(key);
  // A failure after the sink got bytes is not retried (the loop sees them in the exchange trace).
  return impl.with_retries<GetObjectResult>(operation, nullptr, [&](int) -> Result<GetObjectResult> {
    std::vector<sigv4::Header> headers;
    // B2 refuses x-amz-checksum-mode like every x-amz-checksum header (provider_profile.cpp).
    if (impl.profile->sdk_checksum_headers) headers.push_back({"x-amz-checksum-mode", "ENABLED"});
    SignedOutgoingRequest request =
        impl.sign("GET", target, std::move(headers), std::string(sigv4::empty_sha256_hex));

    // The bytes are checksummed on their way to the sink when the answer carries a full-object checksum (a
    // composite one, "<b64>-<parts>", covers parts, not the bytes, and is only recorded). The algorithm is
    // known once the headers have arrived, so the checksum is chosen on the first body piece.
    std::unique_ptr<Checksum> checksum;
    std::string expected;
    bool chosen = false;
    auto choose_checksum = [&](const std::vector<std::pair<std::string, std::string>>& headers) {
      chosen = true;
      for (const auto& [name, value] : headers) {
        auto algorithm = algorithm_from_header(name);
        if (algorithm && value.find('-') == std::string::npos) {
          checksum = make_checksum(*algorithm);
          expected = value;
          return;
        }
      }
    };
    ResponseSink verifying_sink = [&](const HttpResponse& answer, std::span<const std::byte> data) {
      if (!chosen) choose_checksum(answer.headers);
      if (checksum) checksum->update(data);
      sink(data);
    };
    auto response = impl.exchange(request, nullptr, &verifying_sink);
    if (!response) return response.error();
    if (!response->successful()) return service_error(response.value());

    GetObjectResult result;
    result.http_status = response->status;
    result.etag = std::string(response->header("etag"));
    result.request_id = std::string(response->header("x-amz-request-id"));
    result.bytes = response->body_bytes;
    for (const auto& [name, value] : response->headers) {
      if (algorithm_from_header(name)) result.checksums.emplace_back(name, value);
    }
    // An empty object never reached the sink: its checksum is that of no bytes.
    if (!chosen) choose_checksum(response->headers);
    if (checksum) {
      std::string received = checksum->finish().base64();
      if (received != expected) {
        return checksum_mismatch_error(
            response.value(), "the object's " + std::string(algorithm_name(checksum->algorithm())) + " is " +
                                  expected + " but the bytes received give " + received);
      }
    }
    return result;
  });
}

Result<long> Client::create_bucket(std::string_view bucket) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_bucket(bucket)) return *error;

  // Outside us-east-1, S3 needs the region in the body (else IllegalLocationConstraintException).
  std::string configuration;
  if (impl.config.region != "us-east-1") {
    configuration =
        "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>" +
        impl.config.region + "</LocationConstraint></CreateBucketConfiguration>";
  }
  MemorySource source{std::string_view(configuration)};
  const std::string payload_hash = compute_checksum(ChecksumAlgorithm::sha256, configuration).hex();
  const RequestTarget target = impl.target(bucket, "");
  return impl.with_retries<long>("PUT s3://" + std::string(bucket), &source, [&](int) -> Result<long> {
    RawBodyEncoder encoder(source);
    std::vector<sigv4::Header> headers;
    if (!configuration.empty()) headers.push_back({"content-type", "application/xml"});
    SignedOutgoingRequest request = impl.sign("PUT", target, std::move(headers), payload_hash);
    auto response = impl.exchange(request, &encoder, nullptr);
    if (!response) return response.error();
    if (response->successful()) return response->status;
    Error error = service_error(response.value());
    // Creating a bucket one already owns is the state the caller wanted.
    if (response->status == 409 && error.code == "BucketAlreadyOwnedByYou") return response->status;
    return error;
  });
}

Result<long> Client::delete_object(std::string_view bucket, std::string_view key) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_bucket(bucket)) return *error;
  if (auto error = validate_key(key)) return *error;
  const RequestTarget target = impl.target(bucket, key);
  const std::string operation = "DELETE s3://" + std::string(bucket) + "/" + std::string(key);
  return impl.with_retries<long>(operation, nullptr, [&](int) -> Result<long> {
    SignedOutgoingRequest request = impl.sign("DELETE", target, {}, std::string(sigv4::empty_sha256_hex));
    auto response = impl.exchange(request, nullptr, nullptr);
    if (!response) return response.error();
    if (response->successful()) return response->status;
    return service_error(response.value());
  });
}

}  // namespace s3up
