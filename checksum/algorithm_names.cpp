// algorithm_names.cpp: how each checksum algorithm is named on the wire (x-amz-sdk-checksum-algorithm
// values, x-amz-checksum-* header and trailer names, Content-MD5, multipart XML elements) and the sizes of
// its digest.
#include <stdexcept>

#include "s3up/checksum.h"

namespace s3up {
namespace {

struct AlgorithmInfo {
  ChecksumAlgorithm algorithm;
  std::string_view name;
  std::string_view header;
  std::string_view xml_element;
  std::size_t digest_size;
};

constexpr std::array<AlgorithmInfo, 6> algorithms = {{
    {ChecksumAlgorithm::crc32, "CRC32", "x-amz-checksum-crc32", "ChecksumCRC32", 4},
    {ChecksumAlgorithm::crc32c, "CRC32C", "x-amz-checksum-crc32c", "ChecksumCRC32C", 4},
    {ChecksumAlgorithm::crc64nvme, "CRC64NVME", "x-amz-checksum-crc64nvme", "ChecksumCRC64NVME", 8},
    {ChecksumAlgorithm::sha1, "SHA1", "x-amz-checksum-sha1", "ChecksumSHA1", 20},
    {ChecksumAlgorithm::sha256, "SHA256", "x-amz-checksum-sha256", "ChecksumSHA256", 32},
    {ChecksumAlgorithm::md5, "MD5", "content-md5", "ChecksumMD5", 16},
}};

const AlgorithmInfo& info(ChecksumAlgorithm algorithm) {
  for (const auto& entry : algorithms)
    if (entry.algorithm == algorithm) return entry;
  throw std::invalid_argument("unknown checksum algorithm");
}

}  // namespace

std::string_view algorithm_name(ChecksumAlgorithm algorithm) {
  return info(algorithm).name;
}
std::string_view header_name(ChecksumAlgorithm algorithm) {
  return info(algorithm).header;
}
std::string_view xml_element_name(ChecksumAlgorithm algorithm) {
  return info(algorithm).xml_element;
}
std::size_t digest_size(ChecksumAlgorithm algorithm) {
  return info(algorithm).digest_size;
}
std::size_t base64_length(ChecksumAlgorithm algorithm) {
  return base64_encoded_size(digest_size(algorithm));
}

std::optional<ChecksumAlgorithm> parse_algorithm(std::string_view name) {
  for (const auto& entry : algorithms)
    if (ascii_iequals(entry.name, name)) return entry.algorithm;
  return std::nullopt;
}

std::optional<ChecksumAlgorithm> algorithm_from_header(std::string_view header) {
  // Content-MD5 is a different mechanism (RFC 1864), not one of the x-amz-checksum-* family.
  for (const auto& entry : algorithms)
    if (entry.algorithm != ChecksumAlgorithm::md5 && ascii_iequals(entry.header, header))
      return entry.algorithm;
  return std::nullopt;
}

}  // namespace s3up
