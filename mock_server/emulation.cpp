// emulation.cpp: what each emulated S3-compatible service refuses, and the error it answers, as public issue
// threads quote them (../shared/s3-compatibility.md gives the thread of each).
#include "emulation.h"

#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "http_request.h"
#include "put_request.h"
#include "s3up/checksum.h"

namespace s3up::mock {
namespace {

constexpr std::array<std::pair<Emulation, std::string_view>, 8> emulation_names{{
    {Emulation::aws, "aws"},
    {Emulation::minio, "minio"},
    {Emulation::ceph, "ceph"},
    {Emulation::wasabi, "wasabi"},
    {Emulation::scaleway, "scaleway"},
    {Emulation::r2, "r2"},
    {Emulation::b2, "b2"},
    {Emulation::gcs, "gcs"},
}};

constexpr std::uint64_t minio_max_chunk = 16ULL << 20;
constexpr std::string_view not_implemented_message =
    "A header you provided implies functionality that is not implemented";

// The checksum algorithm a request names anywhere in its head, with the header that names it: an
// x-amz-checksum-<algorithm> header, x-amz-trailer, x-amz-checksum-algorithm (CreateMultipartUpload) or
// x-amz-sdk-checksum-algorithm.
struct NamedAlgorithm {
  ChecksumAlgorithm algorithm;
  std::string header;
  std::string value;
};

std::optional<NamedAlgorithm> find_algorithm(const HttpRequest& request, ChecksumAlgorithm wanted) {
  for (const auto& field : request.headers) {
    std::string name = ascii_lowercase(field.name);
    std::optional<ChecksumAlgorithm> algorithm;
    if (name == "x-amz-trailer") {
      algorithm = algorithm_from_header(ascii_lowercase(trim_http_whitespace(field.value)));
    } else if (name == "x-amz-checksum-algorithm" || name == "x-amz-sdk-checksum-algorithm") {
      algorithm = parse_algorithm(trim_http_whitespace(field.value));
    } else if (name.starts_with("x-amz-checksum-")) {
      algorithm = algorithm_from_header(name);
    }
    if (algorithm == wanted) return NamedAlgorithm{wanted, name, field.value};
  }
  return std::nullopt;
}

std::optional<PayloadMode> payload_mode(const HttpRequest& request) {
  return parse_payload_mode(trim_http_whitespace(request.value("x-amz-content-sha256").value_or("")));
}

bool trailer_mode(const std::optional<PayloadMode>& mode) {
  return mode == PayloadMode::streaming_unsigned_trailer || mode == PayloadMode::streaming_signed_trailer;
}

// Backblaze B2 refuses every checksum header of the 2025 SDKs, x-amz-checksum-mode on GetObject and
// x-amz-checksum-algorithm on CreateMultipartUpload included, with 400 InvalidArgument
// (home-assistant/core#143995, root-gg/plik#508, diced/zipline#746).
std::optional<S3Error> b2_refusal(const HttpRequest& request) {
  for (const auto& field : request.headers) {
    std::string name = ascii_lowercase(field.name);
    if (name.starts_with("x-amz-checksum-") || name == "x-amz-sdk-checksum-algorithm" ||
        name == "x-amz-trailer") {
      return s3_error(400, "InvalidArgument",
                      "Unsupported header '" + name + "' received for this API call.");
    }
  }
  return std::nullopt;
}

// Cloudflare R2 answers 501 to signed streaming ("STREAMING-AWS4-HMAC-SHA256-PAYLOAD not implemented",
// soto-project/soto#643) and to CRC64NVME (skypilot-org/skypilot#5282; the wording is the one it gave CRC32C
// before supporting it, mattermost/mattermost#22221).
std::optional<S3Error> r2_refusal(const HttpRequest& request) {
  auto mode = payload_mode(request);
  if (mode == PayloadMode::streaming_signed || mode == PayloadMode::streaming_signed_trailer) {
    std::string value(trim_http_whitespace(request.value("x-amz-content-sha256").value_or("")));
    return s3_error(501, "NotImplemented", value + " not implemented");
  }
  if (auto named = find_algorithm(request, ChecksumAlgorithm::crc64nvme)) {
    return s3_error(501, "NotImplemented",
                    "Header '" + named->header + "' with value '" + named->value + "' not implemented");
  }
  return std::nullopt;
}

// Wasabi: streaming PUTs are reported to stall for minutes and then fail (rgcsekaraa/brows3#14), so the
// emulation refuses every aws-chunked body at once instead of hanging a test; a CRC32C checksum is "invalid"
// (mattermost/mattermost#27293).
std::optional<S3Error> wasabi_refusal(const HttpRequest& request) {
  auto mode = payload_mode(request);
  if (mode && is_streaming(*mode)) return s3_error(501, "NotImplemented", not_implemented_message);
  if (auto named = find_algorithm(request, ChecksumAlgorithm::crc32c)) {
    return s3_error(400, "InvalidRequest", "Value for " + named->header + " header is invalid.");
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(Emulation emulation) {
  for (const auto& [value, name] : emulation_names) {
    if (value == emulation) return name;
  }
  return "unknown";
}

std::optional<Emulation> parse_emulation(std::string_view name) {
  for (const auto& [value, text] : emulation_names) {
    if (ascii_iequals(name, text)) return value;
  }
  return std::nullopt;
}

std::optional<S3Error> emulation_refusal(Emulation emulation, const HttpRequest& request) {
  switch (emulation) {
    case Emulation::aws:
    case Emulation::minio:  // its limit is on the chunks themselves: emulated_max_chunk_size
      return std::nullopt;
    case Emulation::ceph:
      // Releases before trailer support (ceph/ceph#54856) fail the SDKs' trailer uploads with
      // XAmzContentSHA256Mismatch (fleetdm/fleet#47850).
      if (trailer_mode(payload_mode(request))) {
        return s3_error(400, "XAmzContentSHA256Mismatch",
                        "The provided 'x-amz-content-sha256' header does not match what was computed.");
      }
      return std::nullopt;
    case Emulation::wasabi:
      return wasabi_refusal(request);
    case Emulation::scaleway:
      // scaleway/docs-content#4633: any x-amz-trailer, whatever it names.
      if (request.find("x-amz-trailer")) {
        return s3_error(400, "InvalidRequest", unsupported_trailer_message);
      }
      return std::nullopt;
    case Emulation::r2:
      return r2_refusal(request);
    case Emulation::b2:
      return b2_refusal(request);
    case Emulation::gcs:
      // Trailers reported rejected by the XML API (milvus-io/milvus#49978).
      if (request.find("x-amz-trailer") || trailer_mode(payload_mode(request))) {
        return s3_error(501, "NotImplemented", not_implemented_message);
      }
      return std::nullopt;
  }
  return std::nullopt;
}

std::uint64_t emulated_max_chunk_size(Emulation emulation) {
  return emulation == Emulation::minio ? minio_max_chunk : 0;
}

S3Error chunk_too_big_error() {
  // minio/minio#21611, minio/minio#21303: 400 BadRequest, this message.
  return s3_error(400, "BadRequest", "chunk too big: choose chunk size <= 16MiB");
}

}  // namespace s3up::mock
