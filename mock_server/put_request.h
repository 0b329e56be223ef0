// put_request.h: what a PutObject promises before its body arrives — the payload mode (x-amz-content-sha256),
// the aws-chunked headers, the checksum it carries (x-amz-checksum-*, x-amz-trailer, Content-MD5,
// x-amz-sdk-checksum-algorithm) — checked for consistency so that bad requests fail before any byte is read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "s3_error.h"
#include "s3up/checksum.h"
#include "s3up/mock_server.h"

namespace s3up::mock {

// S3's (and Scaleway's) answer to an x-amz-trailer it will not take.
inline constexpr std::string_view unsupported_trailer_message =
    "The value specified in the x-amz-trailer header is not supported";

struct HttpRequest;

enum class PayloadMode {
  signed_payload,  // hex SHA-256 of the body
  unsigned_payload,
  streaming_unsigned_trailer,
  streaming_signed,
  streaming_signed_trailer,
};

std::optional<PayloadMode> parse_payload_mode(std::string_view content_sha256);
bool is_streaming(PayloadMode mode);
bool has_chunk_signatures(PayloadMode mode);

struct ChecksumExpectation {
  std::optional<ChecksumAlgorithm> algorithm;  // from the x-amz-checksum-* header or the x-amz-trailer
  std::optional<Digest> header_value;          // set when the checksum came as a header
  std::string trailer_name;                    // lowercase "x-amz-checksum-crc32" when declared as a trailer
  std::optional<Digest> content_md5;
  std::string content_md5_text;
};

struct PutPlan {
  PayloadMode mode = PayloadMode::unsigned_payload;
  std::string payload_sha256;        // lowercase hex (signed_payload)
  std::uint64_t decoded_length = 0;  // x-amz-decoded-content-length (streaming modes)
  ChecksumExpectation checksum;
  std::string content_type;
  std::uint64_t max_size = 0;  // ServerOptions::max_object_size: an HTTP chunked raw body stops there
  bool md5_etag = true;        // ServerOptions::md5_etag
  // The checksum computed and stored when the request carries none: S3 stores a CRC64NVME for such an object
  // (reference §5.3); an UploadPart computes its upload's algorithm instead.
  ChecksumAlgorithm default_checksum = ChecksumAlgorithm::crc64nvme;
  // The largest aws-chunked chunk the emulated service takes (MinIO: 16 MiB); 0: no limit.
  std::uint64_t max_chunk_size = 0;
};

std::optional<S3Error> plan_put_object(const HttpRequest& request, const ServerOptions& options,
                                       PutPlan& plan);

}  // namespace s3up::mock
