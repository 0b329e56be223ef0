// multipart_checksum.cpp: the checksum types of multipart uploads (which algorithm allows which, reference
// §6.1, and their names) and the object checksum combined from the parts' (§6.2, §6.3).
#include "client/multipart_checksum.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/error.h"

namespace s3up {

std::string_view to_string(ChecksumType type) {
  switch (type) {
    case ChecksumType::composite:
      return "COMPOSITE";
    case ChecksumType::full_object:
      return "FULL_OBJECT";
  }
  return "UNKNOWN";
}

std::optional<ChecksumType> parse_checksum_type(std::string_view text) {
  if (ascii_iequals(text, "COMPOSITE")) return ChecksumType::composite;
  if (ascii_iequals(text, "FULL_OBJECT")) return ChecksumType::full_object;
  return std::nullopt;
}

bool checksum_type_supported(ChecksumAlgorithm algorithm, ChecksumType type) {
  switch (algorithm) {
    case ChecksumAlgorithm::crc32:
    case ChecksumAlgorithm::crc32c:
      return true;
    case ChecksumAlgorithm::crc64nvme:
      return type == ChecksumType::full_object;
    case ChecksumAlgorithm::sha1:
    case ChecksumAlgorithm::sha256:
      return type == ChecksumType::composite;
    case ChecksumAlgorithm::md5:
      return false;
  }
  return false;
}

Result<std::string> multipart_object_checksum(ChecksumAlgorithm algorithm, ChecksumType type,
                                              std::span<const CompletedPart> parts) {
  if (!checksum_type_supported(algorithm, type)) {
    return make_error(Error::Kind::invalid_argument, "InvalidArgument",
                      "S3 has no " + std::string(to_string(type)) + " " +
                          std::string(algorithm_name(algorithm)) + " checksum");
  }
  if (parts.empty()) {
    return make_error(Error::Kind::invalid_argument, "InvalidArgument", "a multipart object needs a part");
  }
  std::vector<Digest> digests;
  digests.reserve(parts.size());
  for (const CompletedPart& part : parts) {
    auto digest = base64_decode_digest(part.checksum);
    if (!digest || digest->size() != digest_size(algorithm)) {
      return make_error(Error::Kind::invalid_argument, "InvalidArgument",
                        "part " + std::to_string(part.part_number) + " has no valid " +
                            std::string(algorithm_name(algorithm)) + " checksum (\"" + part.checksum + "\")");
    }
    digests.push_back(*digest);
  }

  if (type == ChecksumType::full_object) {
    // crc(A || B) from crc(A), crc(B) and len(B): the CRC of the whole object, part after part.
    Digest object = digests.front();
    for (std::size_t i = 1; i < digests.size(); ++i) {
      auto combined = combine_crc(algorithm, object, digests[i], parts[i].size);
      if (!combined) {
        return make_error(Error::Kind::invalid_argument, "InvalidArgument",
                          std::string(algorithm_name(algorithm)) + " checksums cannot be combined");
      }
      object = *combined;
    }
    return object.base64();
  }
  // The checksum of the raw part digests, concatenated in part order (not of their base64 text).
  std::unique_ptr<Checksum> composite = make_checksum(algorithm);
  for (const Digest& digest : digests) composite->update(digest.bytes());
  return composite->finish().base64() + "-" + std::to_string(parts.size());
}

}  // namespace s3up
