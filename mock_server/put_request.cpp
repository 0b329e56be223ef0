// put_request.cpp: PutObject header checks, in the order S3 reports them.
#include "put_request.h"

#include <algorithm>

#include "emulation.h"
#include "http_request.h"
#include "s3up/sigv4.h"

namespace s3up::mock {

std::optional<PayloadMode> parse_payload_mode(std::string_view content_sha256) {
  if (content_sha256 == sigv4::unsigned_payload) return PayloadMode::unsigned_payload;
  if (content_sha256 == sigv4::streaming_unsigned_payload_trailer)
    return PayloadMode::streaming_unsigned_trailer;
  if (content_sha256 == sigv4::streaming_signed_payload) return PayloadMode::streaming_signed;
  if (content_sha256 == sigv4::streaming_signed_payload_trailer) return PayloadMode::streaming_signed_trailer;
  bool hex =
      content_sha256.size() == 64 && std::all_of(content_sha256.begin(), content_sha256.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      });
  if (hex) return PayloadMode::signed_payload;
  return std::nullopt;
}

bool is_streaming(PayloadMode mode) {
  return mode != PayloadMode::signed_payload && mode != PayloadMode::unsigned_payload;
}

bool has_chunk_signatures(PayloadMode mode) {
  return mode == PayloadMode::streaming_signed || mode == PayloadMode::streaming_signed_trailer;
}

namespace {

S3Error invalid_request(std::string_view message) {
  return s3_error(400, "InvalidRequest", message);
}

constexpr std::string_view multiple_checksums =
    "Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.";

std::optional<S3Error> plan_checksum(const HttpRequest& request, PutPlan& plan) {
  ChecksumExpectation& expect = plan.checksum;

  if (auto trailer = request.value("x-amz-trailer")) {
    if (plan.mode != PayloadMode::streaming_unsigned_trailer &&
        plan.mode != PayloadMode::streaming_signed_trailer) {
      return invalid_request("x-amz-trailer is only valid with a STREAMING-...-TRAILER x-amz-content-sha256");
    }
    expect.trailer_name = ascii_lowercase(trim_http_whitespace(*trailer));
    auto algorithm = algorithm_from_header(expect.trailer_name);
    if (!algorithm || *algorithm == ChecksumAlgorithm::md5)
      return invalid_request(unsupported_trailer_message);
    expect.algorithm = algorithm;
  }

  for (const auto& header : request.headers) {
    std::string name = ascii_lowercase(header.name);
    if (!name.starts_with("x-amz-checksum-")) continue;
    auto algorithm = algorithm_from_header(name);
    if (!algorithm || *algorithm == ChecksumAlgorithm::md5) continue;  // x-amz-checksum-mode, -type, ...
    if (expect.algorithm) return invalid_request(multiple_checksums);
    auto digest = base64_decode_digest(header.value);
    if (!digest || digest->size() != digest_size(*algorithm)) {
      return invalid_request("Value for " + name + " header is invalid.");
    }
    expect.algorithm = algorithm;
    expect.header_value = digest;
  }

  if (auto sdk_algorithm = request.value("x-amz-sdk-checksum-algorithm")) {
    auto algorithm = parse_algorithm(trim_http_whitespace(*sdk_algorithm));
    if (!algorithm || *algorithm == ChecksumAlgorithm::md5) {
      return invalid_request(
          "Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, "
          "CRC32C, CRC64NVME, SHA1, SHA256]");
    }
    if (expect.algorithm != algorithm) {
      return invalid_request(
          "x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or x-amz-trailer "
          "headers "
          "were found.");
    }
  }

  if (auto md5 = request.value("content-md5")) {
    auto digest = base64_decode_digest(trim_http_whitespace(*md5));
    if (!digest || digest->size() != 16)
      return s3_error(400, "InvalidDigest", "The Content-MD5 you specified is not valid.");
    expect.content_md5 = digest;
    expect.content_md5_text = trim_http_whitespace(*md5);
  }
  return std::nullopt;
}

std::optional<S3Error> plan_streaming(const HttpRequest& request, PutPlan& plan) {
  auto encoding = request.value("content-encoding");
  if (!encoding || !has_list_token(*encoding, "aws-chunked")) {
    return invalid_request("A STREAMING-* x-amz-content-sha256 requires Content-Encoding: aws-chunked");
  }
  auto decoded = request.value("x-amz-decoded-content-length");
  if (!decoded)
    return s3_error(411, "MissingContentLength",
                    "You must provide the x-amz-decoded-content-length HTTP header.");
  std::string_view text = trim_http_whitespace(*decoded);
  if (text.empty() || text.size() > 19 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return s3_error(400, "InvalidArgument", "x-amz-decoded-content-length is not a valid length");
  }
  plan.decoded_length = std::stoull(std::string(text));
  return std::nullopt;
}

}  // namespace

std::optional<S3Error> plan_put_object(const HttpRequest& request, const ServerOptions& options,
                                       PutPlan& plan) {
  std::string content_sha256 =
      std::string(trim_http_whitespace(request.value("x-amz-content-sha256").value_or("")));
  auto mode = parse_payload_mode(content_sha256);
  if (!mode) {
    return s3_error(
        400, "InvalidArgument",
        "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, "
        "STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER or a valid sha256 "
        "value.");
  }
  plan.mode = *mode;
  plan.max_size = options.max_object_size;
  plan.md5_etag = options.md5_etag;
  plan.max_chunk_size = emulated_max_chunk_size(options.emulate);
  if (plan.mode == PayloadMode::signed_payload) plan.payload_sha256 = ascii_lowercase(content_sha256);
  if (is_streaming(plan.mode)) {
    if (auto error = plan_streaming(request, plan)) return error;
    if (plan.decoded_length > options.max_object_size)
      return entity_too_large_error(plan.decoded_length, options.max_object_size);
  }
  if (auto error = plan_checksum(request, plan)) return error;
  plan.content_type = request.value("content-type").value_or("binary/octet-stream");
  return std::nullopt;
}

}  // namespace s3up::mock
