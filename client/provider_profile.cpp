// provider_profile.cpp: the table of what each S3 service accepts on an upload, and the choice of checksum,
// location and payload mode an upload makes from its row. Facts: ../shared/s3-compatibility.md.
#include "client/provider_profile.h"

#include <array>
#include <string>

#include "client/error.h"

namespace s3up {
namespace {

constexpr std::size_t mib = 1024 * 1024;

// One row per service, in Provider order (automatic has no row: it is resolved to one of the others).
constexpr std::array<ProviderProfile, 9> profiles{{
    // Amazon S3 takes everything: trailers over HTTPS (what the SDKs send since January 2025), all five
    // algorithms, signed streaming.
    {.provider = Provider::aws,
     .service = "Amazon S3",
     .trailers = Support::yes,
     .checksum_headers = Support::yes,
     .signed_streaming = Support::yes,
     .source = "AWS S3 documentation; botocore and aws-sdk-go-v2 sources"},
    // MinIO takes trailers and every algorithm, but refuses an aws-chunked chunk over 16 MiB with 400
    // BadRequest "chunk too big: choose chunk size <= 16MiB" (minio/minio#21611, minio/minio#21303).
    {.provider = Provider::minio,
     .service = "MinIO",
     .trailers = Support::yes,
     .checksum_headers = Support::yes,
     .signed_streaming = Support::yes,
     .max_chunk_size = 16 * mib,
     .source = "minio/minio#21611"},
    // Ceph RGW parses trailers only in recent releases (ceph/ceph#54856); older ones answer
    // XAmzContentSHA256Mismatch to the SDKs' trailer defaults (fleetdm/fleet#47850). Header mode works on
    // all.
    {.provider = Provider::ceph,
     .service = "Ceph RGW",
     .trailers = Support::unknown,
     .checksum_headers = Support::yes,
     .signed_streaming = Support::yes,
     .source = "ceph/ceph#54856, fleetdm/fleet#47850"},
    // Wasabi: streaming PUTs reported to stall (rgcsekaraa/brows3#14), signed chunk framing once stored
    // inside the object (minio/minio-go#774), a CRC32C header rejected as invalid
    // (mattermost/mattermost#27293):
    // header CRC32, no aws-chunked body at all.
    {.provider = Provider::wasabi,
     .service = "Wasabi",
     .trailers = Support::no,
     .checksum_headers = Support::yes,
     .refused_algorithms = algorithm_bit(ChecksumAlgorithm::crc32c),
     .refused_algorithms_source = "mattermost/mattermost#27293",
     .signed_streaming = Support::no,
     .source = "rgcsekaraa/brows3#14, minio/minio-go#774, mattermost/mattermost#27293"},
    // Scaleway refuses every trailer: 400 InvalidRequest "The value specified in the x-amz-trailer header is
    // not supported" (scaleway/docs-content#4633). Checksum headers work.
    {.provider = Provider::scaleway,
     .service = "Scaleway Object Storage",
     .trailers = Support::no,
     .checksum_headers = Support::yes,
     .signed_streaming = Support::unknown,
     .source = "scaleway/docs-content#4633"},
    // Cloudflare R2 takes CRC32 (since 2025), CRC32C, SHA-1 and SHA-256 headers but not CRC64NVME
    // (skypilot-org/skypilot#5282), and answers 501 "STREAMING-AWS4-HMAC-SHA256-PAYLOAD not implemented" to
    // signed streaming (soto-project/soto#643).
    {.provider = Provider::r2,
     .service = "Cloudflare R2",
     .trailers = Support::unknown,
     .checksum_headers = Support::yes,
     .refused_algorithms = algorithm_bit(ChecksumAlgorithm::crc64nvme),
     .refused_algorithms_source = "skypilot-org/skypilot#5282",
     .signed_streaming = Support::no,
     .source = "skypilot-org/skypilot#5282, soto-project/soto#643"},
    // Backblaze B2 refuses x-amz-checksum-*, x-amz-sdk-checksum-algorithm and x-amz-checksum-mode with 400
    // InvalidArgument "Unsupported header '...' received for this API call." (home-assistant/core#143995):
    // Content-MD5 is its integrity check.
    {.provider = Provider::b2,
     .service = "Backblaze B2",
     .trailers = Support::no,
     .checksum_headers = Support::no,
     .sdk_checksum_headers = false,
     .signed_streaming = Support::unknown,
     .content_md5_fallback = true,
     .source = "home-assistant/core#143995"},
    // Google Cloud Storage's XML API: trailers reported rejected (milvus-io/milvus#49978), x-amz-checksum-*
    // support varies; Content-MD5 is the safe check.
    {.provider = Provider::gcs,
     .service = "Google Cloud Storage",
     .trailers = Support::no,
     .checksum_headers = Support::unknown,
     .sdk_checksum_headers = false,
     .signed_streaming = Support::unknown,
     .content_md5_fallback = true,
     .source = "milvus-io/milvus#49978"},
    // Any other endpoint: s3up's custom-endpoint behaviour (header mode; trailers only when
    // ClientConfig::endpoint_accepts_trailers says so, as Scaleway and B2 refuse them).
    {.provider = Provider::generic,
     .service = "a generic S3-compatible endpoint",
     .trailers = Support::unknown,
     .checksum_headers = Support::yes,
     .signed_streaming = Support::yes,
     .source = "s3-compatibility.md"},
}};

Error refusal(const ProviderProfile& profile, std::string what, std::string_view source) {
  return make_error(Error::Kind::invalid_argument, "UnsupportedByProvider",
                    std::string(profile.service) + " (provider " + std::string(to_string(profile.provider)) +
                        ") " + what + " (" + std::string(source) + "); nothing was sent");
}

bool refused(const ProviderProfile& profile, ChecksumAlgorithm algorithm) {
  return (profile.refused_algorithms & algorithm_bit(algorithm)) != 0;
}

// The refusals of an explicitly asked algorithm or location that any request would meet.
std::optional<Error> check_checksum_choice(const ProviderProfile& profile,
                                           std::optional<ChecksumAlgorithm> algorithm,
                                           ChecksumLocation location) {
  if (location == ChecksumLocation::none) return std::nullopt;
  if (algorithm && refused(profile, *algorithm)) {
    return refusal(profile, "refuses " + std::string(algorithm_name(*algorithm)) + " checksums",
                   profile.refused_algorithms_source);
  }
  if (location == ChecksumLocation::trailer && profile.trailers == Support::no) {
    return refusal(profile, "refuses aws-chunked checksum trailers; use checksum location header",
                   profile.source);
  }
  const bool no_header = profile.checksum_headers == Support::no;
  if (no_header && (location == ChecksumLocation::header || algorithm)) {
    return refusal(
        profile,
        "refuses x-amz-checksum-* headers; it gets Content-MD5 instead (or choose checksum location "
        "none)",
        profile.source);
  }
  return std::nullopt;
}

}  // namespace

const ProviderProfile& provider_profile(Provider provider) {
  for (const ProviderProfile& profile : profiles) {
    if (profile.provider == provider) return profile;
  }
  return profiles.back();  // generic
}

Provider resolve_provider(Provider configured, std::string_view endpoint_url) {
  return configured == Provider::automatic ? detect_provider(endpoint_url) : configured;
}

Result<UploadChoice> choose_upload(const ProviderProfile& profile, const UploadRequest& request) {
  UploadChoice choice;
  choice.sdk_checksum_header = profile.sdk_checksum_headers;
  std::optional<ChecksumAlgorithm> algorithm =
      request.part_without_checksum ? std::nullopt : request.algorithm;
  ChecksumLocation location = request.part_without_checksum ? ChecksumLocation::none : request.location;
  if (auto error = check_checksum_choice(profile, algorithm, location)) return *error;

  if (location == ChecksumLocation::automatic) {
    // A trailer saves the pre-read, but only for services known to take it (or that the caller vouches
    // for), over TLS (the SDKs' rule: unsigned chunks rely on TLS), for a non-empty body, and not as a
    // signed stream where signed streaming is not known to work.
    const bool trailers = profile.trailers == Support::yes ||
                          (profile.trailers == Support::unknown && request.endpoint_accepts_trailers);
    const bool signed_ok = !request.signed_payload || profile.signed_streaming == Support::yes;
    if (request.https && request.body_size > 0 && trailers && signed_ok) {
      location = ChecksumLocation::trailer;
    } else if (profile.checksum_headers == Support::yes ||
               (algorithm && profile.checksum_headers == Support::unknown)) {
      location = ChecksumLocation::header;
    } else {
      location = ChecksumLocation::none;  // the provider's fallback below
    }
  }
  if (location != ChecksumLocation::none && !algorithm &&
      request.calculation == ChecksumCalculation::when_supported) {
    algorithm = default_checksum_algorithm;
  }
  if (!algorithm) location = ChecksumLocation::none;
  if (location == ChecksumLocation::none) algorithm.reset();
  choice.checksum = {algorithm, location};

  const bool trailer = location == ChecksumLocation::trailer;
  if (request.signed_payload && trailer && profile.signed_streaming == Support::no) {
    return refusal(
        profile,
        "refuses signed streaming (STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER); sign with checksum "
        "location header, or send the trailer unsigned",
        profile.source);
  }
  // Signed chunks carry a signed payload that has no header checksum to pre-read for; where signed streaming
  // is not known to work, the payload's SHA-256 is pre-read and signed instead (still a signed payload).
  choice.aws_chunked = trailer || (location == ChecksumLocation::none && request.signed_payload &&
                                   profile.signed_streaming == Support::yes);
  if (choice.aws_chunked && profile.max_chunk_size != 0 && request.chunk_size > profile.max_chunk_size) {
    return refusal(profile,
                   "refuses aws-chunked chunks over " + std::to_string(profile.max_chunk_size) +
                       " bytes (\"chunk too big\"); chunk_size is " + std::to_string(request.chunk_size),
                   profile.source);
  }
  choice.content_md5 = profile.content_md5_fallback && location == ChecksumLocation::none &&
                       request.location != ChecksumLocation::none &&
                       request.calculation == ChecksumCalculation::when_supported;
  return choice;
}

Result<std::optional<ChecksumAlgorithm>> choose_multipart_algorithm(
    const ProviderProfile& profile, std::optional<ChecksumAlgorithm> requested, ChecksumLocation location,
    ChecksumCalculation calculation) {
  if (location == ChecksumLocation::none) return std::optional<ChecksumAlgorithm>();
  if (auto error = check_checksum_choice(profile, requested, location)) return *error;
  if (requested) return requested;
  // The default only where checksum headers are known to work: CreateMultipartUpload declares the algorithm
  // in x-amz-checksum-algorithm, which B2 refuses (root-gg/plik#508).
  if (calculation == ChecksumCalculation::when_supported &&
      (profile.checksum_headers == Support::yes ||
       (location != ChecksumLocation::automatic && profile.checksum_headers == Support::unknown))) {
    return std::optional<ChecksumAlgorithm>(default_checksum_algorithm);
  }
  return std::optional<ChecksumAlgorithm>();
}

std::optional<Error> check_provider_config(const ProviderProfile& profile, const ClientConfig& config) {
  if (config.endpoint_accepts_trailers && profile.trailers == Support::no) {
    return refusal(profile, "refuses aws-chunked trailers, yet endpoint_accepts_trailers is set",
                   profile.source);
  }
  return std::nullopt;
}

}  // namespace s3up
