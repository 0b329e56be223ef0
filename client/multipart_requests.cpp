// multipart_requests.cpp: the multipart requests (reference §6.5): CreateMultipartUpload (the checksum
// algorithm and type decided and checked before anything is sent), UploadPart (its body streamed as a
// PutObject's, by put_body, under the upload's algorithm), CompleteMultipartUpload (the part list, the
// combined FULL_OBJECT checksum, a 200 carrying an <Error>, the server's checksum checked against ours),
// AbortMultipartUpload and ListParts (every page), each in the retry loop.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "client/client_impl.h"
#include "client/error.h"
#include "client/multipart_checksum.h"
#include "client/multipart_xml.h"
#include "client/s3_error.h"
#include "client/validation.h"
#include "s3up/client.h"

namespace s3up {
namespace {

// S3's result documents are small; a ListParts page of 1,000 parts with SHA-256 checksums is about 300 KB.
constexpr std::size_t max_result_document = 4 << 20;
constexpr int max_part_number = 10'000;

Error invalid(std::string message) {
  return make_error(Error::Kind::invalid_argument, "InvalidArgument", std::move(message));
}

std::optional<Error> validate_upload(const MultipartUpload& upload) {
  if (auto error = validate_bucket(upload.bucket)) return error;
  if (auto error = validate_key(upload.key)) return error;
  if (upload.upload_id.empty()) return invalid("the multipart upload has no upload id");
  if (upload.checksum_algorithm &&
      !checksum_type_supported(*upload.checksum_algorithm, upload.checksum_type)) {
    return invalid("S3 has no " + std::string(to_string(upload.checksum_type)) + " " +
                   std::string(algorithm_name(*upload.checksum_algorithm)) + " checksum");
  }
  return std::nullopt;
}

Error protocol_error(const HttpResponse& response, std::string code, std::string message) {
  Error error = make_error(Error::Kind::protocol, std::move(code), std::move(message));
  error.http_status = response.status;
  error.request_id = std::string(response.header("x-amz-request-id"));
  error.host_id = std::string(response.header("x-amz-id-2"));
  return error;
}

// Collects the XML document of a 2xx answer, up to max_result_document bytes (error answers are read by the
// exchange itself, into response.body). One per attempt.
class DocumentCollector {
 public:
  explicit DocumentCollector(std::string& document) : document_(document) {
    document_.clear();
    sink_ = [this](const HttpResponse&, std::span<const std::byte> data) {
      if (document_.size() + data.size() > max_result_document) {
        too_large_ = true;
        throw std::length_error("result document too large");
      }
      document_.append(reinterpret_cast<const char*>(data.data()), data.size());
    };
  }
  DocumentCollector(const DocumentCollector&) = delete;
  DocumentCollector& operator=(const DocumentCollector&) = delete;

  const ResponseSink* sink() const { return &sink_; }
  // The exchange's outcome, unless the document outgrew the bound (the exchange then failed as SinkFailed).
  Result<HttpResponse> outcome(Result<HttpResponse> response, std::string_view operation) const {
    if (!too_large_) return response;
    return make_error(Error::Kind::protocol, "ResponseTooLarge",
                      "the answer to " + std::string(operation) + " exceeds " +
                          std::to_string(max_result_document) + " bytes, which no S3 result document does");
  }

 private:
  std::string& document_;
  bool too_large_ = false;
  ResponseSink sink_;
};

// S3 may answer 200 and then, having streamed whitespace while it worked, an <Error> document (reference
// §6.5): a failure, never a result.
std::optional<Error> error_in_success(const HttpResponse& response, const std::string& document) {
  if (!parse_s3_error(document)) return std::nullopt;
  HttpResponse answer = response;
  answer.body = document;
  Error error = service_error(answer);
  error.message += " (an <Error> document in an HTTP " + std::to_string(response.status) + " answer)";
  return error;
}

// The server's object checksum against the one combined from our parts: COMPOSITE as "<base64>-<N>" (a
// server that leaves the suffix off is compared on the base64), FULL_OBJECT as plain base64.
bool same_object_checksum(const std::string& ours, const std::string& theirs) {
  if (theirs == ours) return true;
  std::size_t dash = ours.rfind('-');
  return dash != std::string::npos && theirs.find('-') == std::string::npos && theirs == ours.substr(0, dash);
}

}  // namespace

Result<std::optional<ChecksumAlgorithm>> Client::multipart_checksum_algorithm(
    std::optional<ChecksumAlgorithm> requested) const {
  const Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (!requested) requested = impl.config.checksum_algorithm;
  if (requested == ChecksumAlgorithm::md5) {
    return invalid("MD5 is not an S3 checksum algorithm; use PutObjectOptions::content_md5");
  }
  // The same decision as a PutObject's: location none sends no checksum, when_required none unless asked,
  // and the provider's refusals apply (B2 takes no x-amz-checksum-algorithm: its parts get Content-MD5).
  // (The location itself is the parts' business.)
  return choose_multipart_algorithm(*impl.profile, requested, impl.config.checksum_location,
                                    *impl.config.checksum_calculation);
}

Result<MultipartUpload> Client::create_multipart_upload(std::string_view bucket, std::string_view key,
                                                        const CreateMultipartUploadOptions& options) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_bucket(bucket)) return *error;
  if (auto error = validate_key(key)) return *error;
  if (auto error = validate_header_value("content_type", options.content_type)) return *error;

  auto algorithm = multipart_checksum_algorithm(options.checksum_algorithm);
  if (!algorithm) return algorithm.error();
  MultipartUpload upload;
  upload.bucket = std::string(bucket);
  upload.key = std::string(key);
  upload.checksum_algorithm = algorithm.value();
  if (upload.checksum_algorithm) {
    const bool crc = *upload.checksum_algorithm == ChecksumAlgorithm::crc32 ||
                     *upload.checksum_algorithm == ChecksumAlgorithm::crc32c ||
                     *upload.checksum_algorithm == ChecksumAlgorithm::crc64nvme;
    upload.checksum_type =
        options.checksum_type.value_or(crc ? ChecksumType::full_object : ChecksumType::composite);
    if (!checksum_type_supported(*upload.checksum_algorithm, upload.checksum_type)) {
      return invalid(
          "S3 has no " + std::string(to_string(upload.checksum_type)) + " " +
          std::string(algorithm_name(*upload.checksum_algorithm)) +
          " checksum: FULL_OBJECT takes CRC32, CRC32C or CRC64NVME, COMPOSITE CRC32, CRC32C, SHA1 or "
          "SHA256");
    }
  } else if (options.checksum_type) {
    // S3 refuses x-amz-checksum-type without x-amz-checksum-algorithm (reference §6.1).
    return invalid("checksum type " + std::string(to_string(*options.checksum_type)) +
                   " needs a checksum algorithm, and none is sent (checksum location none, or when_required "
                   "without an algorithm)");
  }

  std::vector<sigv4::Header> headers;
  if (upload.checksum_algorithm) {
    headers.push_back({"x-amz-checksum-algorithm", std::string(algorithm_name(*upload.checksum_algorithm))});
    headers.push_back({"x-amz-checksum-type", std::string(to_string(upload.checksum_type))});
  }
  if (!options.content_type.empty()) headers.push_back({"content-type", options.content_type});

  RequestTarget target = impl.target(bucket, key);
  add_query(target, "uploads", "");
  const std::string operation = "POST s3://" + upload.bucket + "/" + upload.key + "?uploads";
  MemorySource empty{std::string_view()};
  std::string document;
  return impl.with_retries<MultipartUpload>(operation, &empty, [&](int) -> Result<MultipartUpload> {
    // An empty body rather than none, so that the POST carries Content-Length: 0.
    RawBodyEncoder encoder(empty);
    SignedOutgoingRequest request = impl.sign("POST", target, headers, std::string(sigv4::empty_sha256_hex));
    DocumentCollector collector(document);
    auto response =
        collector.outcome(impl.exchange(request, &encoder, collector.sink()), "CreateMultipartUpload");
    if (!response) return response.error();
    if (!response->successful()) return service_error(response.value());
    if (auto error = error_in_success(response.value(), document)) return *error;
    auto upload_id = parse_initiate_result(document);
    if (!upload_id) {
      return protocol_error(response.value(), "UnexpectedResponseBody",
                            "the answer to CreateMultipartUpload is no InitiateMultipartUploadResult with an "
                            "UploadId");
    }
    MultipartUpload created = upload;
    created.upload_id = std::move(*upload_id);
    impl.logger->debug("created multipart upload {} for s3://{}/{} (checksum {} {})", created.upload_id,
                       created.bucket, created.key,
                       created.checksum_algorithm ? algorithm_name(*created.checksum_algorithm) : "none",
                       created.checksum_algorithm ? to_string(created.checksum_type) : "");
    return created;
  });
}

Result<UploadPartResult> Client::upload_part(const MultipartUpload& upload, int part_number, BodySource& body,
                                             const PutObjectOptions& options) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_upload(upload)) return *error;
  if (part_number < 1 || part_number > max_part_number) {
    return invalid("part numbers run from 1 to 10000, not " + std::to_string(part_number));
  }
  StreamedPut put;
  put.target = impl.target(upload.bucket, upload.key);
  add_query(put.target, "partNumber", std::to_string(part_number));
  add_query(put.target, "uploadId", upload.upload_id);
  put.operation = "PUT s3://" + upload.bucket + "/" + upload.key + " part " + std::to_string(part_number);
  // The upload's algorithm, whatever the options say: S3 refuses a part checksum of another one, and an
  // upload declared without one takes none.
  put.algorithm = upload.checksum_algorithm;
  put.location = options.checksum_location.value_or(impl.config.checksum_location);
  put.part_without_checksum = !upload.checksum_algorithm;
  if (upload.checksum_algorithm) {
    if (put.location == ChecksumLocation::none) {
      return invalid("the upload was created with " +
                     std::string(algorithm_name(*upload.checksum_algorithm)) +
                     " checksums, so every part needs its own: checksum location none cannot be used");
    }
  }
  put.signed_payload = options.signed_payload;
  put.content_md5 = options.content_md5;
  if (options.progress) put.progress = &options.progress;

  auto sent = impl.put_body(put, body);
  if (!sent) return sent.error();
  UploadPartResult result;
  result.part_number = part_number;
  result.etag = std::move(sent->etag);
  result.bytes = sent->bytes;
  result.checksum = std::move(sent->checksum_sent);
  result.attempts = sent->attempts;
  result.checksum_location = sent->checksum_location;
  return result;
}

Result<CompleteMultipartUploadResult> Client::complete_multipart_upload(
    const MultipartUpload& upload, std::span<const CompletedPart> parts) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_upload(upload)) return *error;
  if (parts.empty()) return invalid("CompleteMultipartUpload needs at least one part");
  int previous = 0;
  for (const CompletedPart& part : parts) {
    if (part.part_number <= previous || part.part_number > max_part_number) {
      return invalid("part numbers must ascend within 1..10000; part " + std::to_string(part.part_number) +
                     " follows " + std::to_string(previous));
    }
    previous = part.part_number;
    if (part.etag.empty()) return invalid("part " + std::to_string(part.part_number) + " has no ETag");
  }

  // Ours, from the parts' checksums: sent for FULL_OBJECT (S3 then checks it), and for either type compared
  // with what S3 answers.
  std::string expected;
  std::vector<sigv4::Header> headers;
  headers.push_back({"content-type", "application/xml"});
  if (upload.checksum_algorithm) {
    auto combined = multipart_object_checksum(*upload.checksum_algorithm, upload.checksum_type, parts);
    if (!combined) return combined.error();
    expected = std::move(combined.value());
    headers.push_back({"x-amz-checksum-type", std::string(to_string(upload.checksum_type))});
    if (upload.checksum_type == ChecksumType::full_object) {
      headers.push_back({std::string(header_name(*upload.checksum_algorithm)), expected});
    }
  }

  const std::string body = complete_multipart_document(parts, upload.checksum_algorithm);
  const std::string payload_hash = compute_checksum(ChecksumAlgorithm::sha256, body).hex();
  MemorySource source{std::string_view(body)};
  RequestTarget target = impl.target(upload.bucket, upload.key);
  add_query(target, "uploadId", upload.upload_id);
  const std::string operation = "POST s3://" + upload.bucket + "/" + upload.key + "?uploadId";
  std::string document;
  return impl.with_retries<CompleteMultipartUploadResult>(
      operation, &source, [&](int) -> Result<CompleteMultipartUploadResult> {
        RawBodyEncoder encoder(source);
        SignedOutgoingRequest request = impl.sign("POST", target, headers, payload_hash);
        DocumentCollector collector(document);
        auto response =
            collector.outcome(impl.exchange(request, &encoder, collector.sink()), "CompleteMultipartUpload");
        if (!response) return response.error();
        if (!response->successful()) return service_error(response.value());
        if (auto error = error_in_success(response.value(), document)) return *error;
        auto parsed = parse_complete_result(document, upload.checksum_algorithm);
        if (!parsed) {
          return protocol_error(response.value(), "UnexpectedResponseBody",
                                "the answer to CompleteMultipartUpload is neither a "
                                "CompleteMultipartUploadResult nor an <Error> document");
        }
        if (parsed->etag.empty()) {
          return protocol_error(response.value(), "MissingETag",
                                "the CompleteMultipartUploadResult has no ETag to confirm the object");
        }
        CompleteMultipartUploadResult result = std::move(*parsed);
        result.http_status = response->status;
        result.request_id = std::string(response->header("x-amz-request-id"));
        if (upload.checksum_algorithm) {
          const std::string name(algorithm_name(*upload.checksum_algorithm));
          if (result.checksum_type && *result.checksum_type != upload.checksum_type) {
            return checksum_mismatch_error(
                response.value(), "the server made a " + std::string(to_string(*result.checksum_type)) +
                                      " checksum of an upload created " +
                                      std::string(to_string(upload.checksum_type)));
          }
          if (!result.checksum.empty() && !same_object_checksum(expected, result.checksum)) {
            return checksum_mismatch_error(
                response.value(), "the server's " + std::string(to_string(upload.checksum_type)) + " " +
                                      name + " is " + result.checksum + " but the parts sent make " +
                                      expected);
          }
        }
        return result;
      });
}

Result<long> Client::abort_multipart_upload(const MultipartUpload& upload) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_upload(upload)) return *error;
  RequestTarget target = impl.target(upload.bucket, upload.key);
  add_query(target, "uploadId", upload.upload_id);
  const std::string operation = "DELETE s3://" + upload.bucket + "/" + upload.key + "?uploadId";
  return impl.with_retries<long>(operation, nullptr, [&](int) -> Result<long> {
    SignedOutgoingRequest request = impl.sign("DELETE", target, {}, std::string(sigv4::empty_sha256_hex));
    auto response = impl.exchange(request, nullptr, nullptr);
    if (!response) return response.error();
    if (!response->successful()) return service_error(response.value());
    impl.logger->debug("aborted multipart upload {} of s3://{}/{}", upload.upload_id, upload.bucket,
                       upload.key);
    return response->status;
  });
}

Result<std::vector<ListedPart>> Client::list_parts(const MultipartUpload& upload) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_upload(upload)) return *error;

  std::vector<ListedPart> parts;
  const std::string operation = "GET s3://" + upload.bucket + "/" + upload.key + "?uploadId";
  std::string document;
  // S3 answers up to 1,000 parts a page; the next page starts after NextPartNumberMarker.
  for (int marker = 0;;) {
    RequestTarget target = impl.target(upload.bucket, upload.key);
    add_query(target, "uploadId", upload.upload_id);
    if (marker > 0) add_query(target, "part-number-marker", std::to_string(marker));
    auto page = impl.with_retries<ListPartsPage>(operation, nullptr, [&](int) -> Result<ListPartsPage> {
      SignedOutgoingRequest request = impl.sign("GET", target, {}, std::string(sigv4::empty_sha256_hex));
      DocumentCollector collector(document);
      auto response = collector.outcome(impl.exchange(request, nullptr, collector.sink()), "ListParts");
      if (!response) return response.error();
      if (!response->successful()) return service_error(response.value());
      if (auto error = error_in_success(response.value(), document)) return *error;
      auto parsed = parse_list_parts_page(document, upload.checksum_algorithm);
      if (!parsed) {
        return protocol_error(response.value(), "UnexpectedResponseBody",
                              "the answer to ListParts is no ListPartsResult S3 would send");
      }
      // A page that says there is more must move on, or the listing would never end.
      if (parsed->truncated && (parsed->next_marker <= marker || parsed->next_marker >= max_part_number)) {
        return protocol_error(response.value(), "InvalidNextPartNumberMarker",
                              "ListParts is truncated but its NextPartNumberMarker " +
                                  std::to_string(parsed->next_marker) + " does not move on from " +
                                  std::to_string(marker));
      }
      return std::move(*parsed);
    });
    if (!page) return page.error();
    for (ListedPart& part : page->parts) parts.push_back(std::move(part));
    if (!page->truncated) return parts;
    marker = page->next_marker;
  }
}

}  // namespace s3up
