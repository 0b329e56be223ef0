// client/provider_profile.h: what each S3 service accepts on an upload (one immutable table, see
// provider_profile.cpp) and the choice of checksum, checksum location and payload mode an upload makes from
// it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

// What is known of a service's support for a feature. unknown: not used by default (a request that works
// everywhere goes instead), but sent when the caller asks for it explicitly, who may know their version.
enum class Support { yes, no, unknown };

struct ProviderProfile {
  Provider provider = Provider::generic;
  std::string_view service{};  // "Backblaze B2", for messages
  // aws-chunked with a checksum trailer (STREAMING-UNSIGNED-PAYLOAD-TRAILER and its signed form).
  Support trailers = Support::unknown;
  // x-amz-checksum-<algorithm> request headers (and x-amz-checksum-algorithm on CreateMultipartUpload).
  Support checksum_headers = Support::yes;
  // Algorithms refused wherever they travel: a bit per ChecksumAlgorithm (algorithm_bit).
  unsigned refused_algorithms = 0;
  std::string_view refused_algorithms_source{};  // the issue thread that reports the refusal
  // x-amz-sdk-checksum-algorithm next to a checksum header, and x-amz-checksum-mode on GetObject.
  bool sdk_checksum_headers = true;
  // STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER]: signed aws-chunked chunks.
  Support signed_streaming = Support::yes;
  std::size_t max_chunk_size = 0;  // largest aws-chunked chunk accepted; 0: no limit known
  // Content-MD5 is the integrity check sent when no checksum header is sent by default (when_supported).
  bool content_md5_fallback = false;
  std::string_view source{};  // where the facts come from (../shared/s3-compatibility.md)
};

constexpr unsigned algorithm_bit(ChecksumAlgorithm algorithm) {
  return 1u << static_cast<unsigned>(algorithm);
}

// The row of the table; automatic has none of its own and gets generic (resolve it first).
const ProviderProfile& provider_profile(Provider provider);

// The service a host names without doubt (a suffix at a label boundary, or the whole host); generic
// otherwise. detect_provider and Endpoint::is_aws both ask this one table.
Provider provider_of_host(std::string_view host);

// automatic becomes detect_provider(endpoint_url); any other value stays.
Provider resolve_provider(Provider configured, std::string_view endpoint_url);

// What a streamed PUT (PutObject or UploadPart) asks for.
struct UploadRequest {
  std::optional<ChecksumAlgorithm>
      algorithm;  // explicit (option, configuration or the upload's); nullopt: none
  ChecksumLocation location = ChecksumLocation::automatic;  // explicit unless automatic
  ChecksumCalculation calculation = ChecksumCalculation::when_supported;
  bool signed_payload = false;
  bool https = true;
  bool endpoint_accepts_trailers = false;  // ClientConfig::endpoint_accepts_trailers
  std::uint64_t body_size = 0;
  std::size_t chunk_size = default_chunk_size;
  // An UploadPart of an upload created without a checksum algorithm: S3 refuses any part checksum, but the
  // provider's Content-MD5 fallback still applies.
  bool part_without_checksum = false;
};

// How it goes out.
struct UploadChoice {
  ChecksumPlan checksum;            // location trailer, header or none; never automatic
  bool aws_chunked = false;         // a trailer, or signed chunks (signed payload, no checksum header)
  bool content_md5 = false;         // the provider's Content-MD5 fallback
  bool sdk_checksum_header = true;  // x-amz-sdk-checksum-algorithm may accompany the checksum
};

// The strongest check the provider accepts for what was asked. An explicit choice the provider refuses (an
// algorithm, a location, a signed stream, a chunk size) is Error{invalid_argument, "UnsupportedByProvider"}
// naming the service and the reason: never replaced silently by something else.
Result<UploadChoice> choose_upload(const ProviderProfile& profile, const UploadRequest& request);

// The algorithm CreateMultipartUpload declares: the explicit one if the provider takes it (else the same
// refusal), else the default under when_supported when the provider takes checksum headers by default.
Result<std::optional<ChecksumAlgorithm>> choose_multipart_algorithm(
    const ProviderProfile& profile, std::optional<ChecksumAlgorithm> requested, ChecksumLocation location,
    ChecksumCalculation calculation);

// Error{invalid_argument} when the configuration contradicts the provider (endpoint_accepts_trailers for a
// service that refuses trailers).
std::optional<Error> check_provider_config(const ProviderProfile& profile, const ClientConfig& config);

}  // namespace s3up
