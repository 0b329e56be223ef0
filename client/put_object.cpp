// put_object.cpp: PutObject in one request. Plans where the checksum travels, picks the payload mode and
// its encoder (raw body, unsigned trailer, signed chunks with or without a trailer), pre-reads the body when
// a header needs its digest, signs, streams, and checks the server's echo of the checksum.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/client_impl.h"
#include "client/error.h"
#include "client/s3_error.h"
#include "client/validation.h"
#include "s3up/client.h"

namespace s3up {
namespace {

// The pre-read needs a second pass; a one-way source can still go with its checksum in a trailer.
Error preread_error(const BodyError& cause) {
  Error error = body_error(cause);
  if (cause.kind() == BodyError::Kind::not_rewindable && error.message.find("trailer") == std::string::npos) {
    error.message +=
        " (a checksum header or Content-MD5 needs a pre-read and a rewind; send the checksum in an "
        "aws-chunked "
        "trailer instead: checksum location trailer)";
  }
  return error;
}

}  // namespace

Result<PutObjectResult> Client::put_object(std::string_view bucket, std::string_view key, BodySource& body,
                                           const PutObjectOptions& options) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_bucket(bucket)) return *error;
  if (auto error = validate_key(key)) return *error;
  if (auto error = validate_header_value("content_type", options.content_type)) return *error;
  std::optional<ChecksumAlgorithm> requested =
      options.checksum_algorithm ? options.checksum_algorithm : impl.config.checksum_algorithm;
  if (requested == ChecksumAlgorithm::md5) {
    return make_error(Error::Kind::invalid_argument, "InvalidArgument",
                      "MD5 is not an S3 checksum algorithm; use PutObjectOptions::content_md5");
  }
  std::optional<std::uint64_t> size = body.size();
  if (!size) {
    return body_error(BodyError(BodyError::Kind::unknown_length, "put_object needs a body of known size"));
  }

  EndpointTraits traits{impl.endpoint.https, impl.endpoint.is_aws() || impl.config.endpoint_accepts_trailers};
  ChecksumPlan plan =
      plan_checksum(requested, options.checksum_location.value_or(impl.config.checksum_location),
                    *impl.config.checksum_calculation, traits, *size);
  // No algorithm means no checksum wherever it was meant to go; location none means no algorithm.
  if (!plan.algorithm || plan.location == ChecksumLocation::automatic) plan.location = ChecksumLocation::none;
  if (plan.location == ChecksumLocation::none) plan.algorithm.reset();

  // Payload modes (reference §1): an aws-chunked body for a trailer, or for a signed payload that has no
  // checksum header to pre-read for (signed chunks need no second pass); the raw body otherwise.
  const bool signed_payload = options.signed_payload;
  const bool trailer = plan.location == ChecksumLocation::trailer;
  const bool aws_chunked = trailer || (plan.location == ChecksumLocation::none && signed_payload);
  const bool header = plan.location == ChecksumLocation::header;

  PrereadDigests digests;
  if (header || options.content_md5) {
    try {
      digests = impl.preread_buffer().run(body, header ? plan.algorithm : std::nullopt,
                                          header && signed_payload, options.content_md5);
    } catch (const BodyError& error) {
      return preread_error(error);
    }
  }

  std::string payload_hash;
  std::vector<sigv4::Header> headers;
  std::string checksum_sent;
  if (aws_chunked) {
    payload_hash = std::string(
        signed_payload ? (trailer ? sigv4::streaming_signed_payload_trailer : sigv4::streaming_signed_payload)
                       : sigv4::streaming_unsigned_payload_trailer);
    headers.push_back({"content-encoding", "aws-chunked"});
    headers.push_back({"x-amz-decoded-content-length", std::to_string(*size)});
    if (trailer) {
      headers.push_back({"x-amz-trailer", std::string(header_name(*plan.algorithm))});
      headers.push_back({"x-amz-sdk-checksum-algorithm", std::string(algorithm_name(*plan.algorithm))});
    }
  } else {
    payload_hash = signed_payload && digests.payload_sha256 ? digests.payload_sha256->hex()
                                                            : std::string(sigv4::unsigned_payload);
    if (header) {
      checksum_sent = digests.checksum->base64();
      headers.push_back({std::string(header_name(*plan.algorithm)), checksum_sent});
      headers.push_back({"x-amz-sdk-checksum-algorithm", std::string(algorithm_name(*plan.algorithm))});
    }
  }
  if (options.content_md5) headers.push_back({"content-md5", digests.content_md5->base64()});
  if (!options.content_type.empty()) headers.push_back({"content-type", options.content_type});

  SignedOutgoingRequest request =
      impl.sign("PUT", impl.target(bucket, key), std::move(headers), std::move(payload_hash));

  std::unique_ptr<BodyEncoder> encoder;
  const std::optional<Digest>* trailer_checksum = nullptr;
  try {
    if (aws_chunked && signed_payload) {
      sigv4::ChunkSigner signer(request.signing_key, request.amz_date, request.scope, request.seed_signature);
      auto chunked = std::make_unique<SignedChunkEncoder>(body, std::move(signer),
                                                          trailer ? make_checksum(*plan.algorithm) : nullptr,
                                                          impl.config.chunk_size);
      trailer_checksum = &chunked->trailer_checksum();
      encoder = std::move(chunked);
    } else if (aws_chunked) {
      auto chunked =
          std::make_unique<TrailerEncoder>(body, make_checksum(*plan.algorithm), impl.config.chunk_size);
      trailer_checksum = &chunked->trailer_checksum();
      encoder = std::move(chunked);
    } else {
      encoder = std::make_unique<RawBodyEncoder>(body);
    }
  } catch (const BodyError& error) {
    return body_error(error);
  }

  impl.logger->debug("put s3://{}/{}: {} bytes, checksum {} in {}, content-md5 {}", bucket, key, *size,
                     plan.algorithm ? algorithm_name(*plan.algorithm) : "none", to_string(plan.location),
                     options.content_md5 ? "yes" : "no");
  auto response = impl.exchange(request, encoder.get(), nullptr);
  if (!response) return response.error();
  if (!response->successful()) return service_error(response.value());

  // A 2xx is only a success if every byte was produced and went out: never report a truncated body as
  // uploaded, even when a server answers before reading all of it.
  const std::uint64_t declared = encoder->encoded_length();
  if (response->upload_bytes != declared || response->sent_bytes != declared) {
    return body_error(BodyError(BodyError::Kind::ended_early,
                                "the server answered " + std::to_string(response->status) + " after " +
                                    std::to_string(std::min(response->upload_bytes, response->sent_bytes)) +
                                    " of " + std::to_string(declared) + " body bytes"));
  }
  if (trailer) {
    if (trailer_checksum == nullptr || !trailer_checksum->has_value()) {
      return body_error(BodyError(BodyError::Kind::ended_early, "the checksum trailer was never produced"));
    }
    checksum_sent = (*trailer_checksum)->base64();
  }

  PutObjectResult result;
  result.http_status = response->status;
  result.etag = std::string(response->header("etag"));
  result.request_id = std::string(response->header("x-amz-request-id"));
  result.bytes = *size;
  result.checksum_algorithm = plan.algorithm;
  result.checksum_location = plan.location;
  result.payload_mode = request.payload_hash;
  result.checksum_sent = std::move(checksum_sent);
  if (plan.algorithm) {
    result.checksum_returned = std::string(response->header(header_name(*plan.algorithm)));
    if (!result.checksum_returned.empty() && result.checksum_returned != result.checksum_sent) {
      return checksum_mismatch_error(
          response.value(), "the server stored " + std::string(algorithm_name(*plan.algorithm)) + " " +
                                result.checksum_returned + " but " + result.checksum_sent + " was sent");
    }
  }
  return result;
}

}  // namespace s3up
