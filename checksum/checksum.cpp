// checksum.cpp: the Checksum front end: Digest, the CRC wrappers over the kernels (big-endian digests,
// as S3 writes CRCs), and the factory and one-shot helpers.
#include <stdexcept>

#include "s3up/checksum.h"

namespace s3up {
namespace {

template <typename Crc>
Digest big_endian_digest(Crc value) {
  std::array<std::byte, sizeof(Crc)> bytes{};
  for (std::size_t i = 0; i < sizeof(Crc); ++i)
    bytes[i] = std::byte((value >> (8 * (sizeof(Crc) - 1 - i))) & 0xff);
  return Digest(bytes);
}

}  // namespace

Digest::Digest(std::span<const std::byte> bytes) {
  if (bytes.size() > max_digest_size) throw std::length_error("Digest: more than max_digest_size bytes");
  std::copy(bytes.begin(), bytes.end(), bytes_.begin());
  size_ = bytes.size();
}

std::string Digest::base64() const {
  return base64_encode(bytes());
}
std::string Digest::hex() const {
  return hex_encode(bytes());
}
std::size_t Digest::base64_to(std::span<char> out) const {
  return base64_encode_to(bytes(), out);
}
void Digest::hex_to(std::span<char> out) const {
  hex_encode_to(bytes(), out);
}

void Crc32::update(std::span<const std::byte> data) {
  value_ = crc32_update(value_, data);
}
Digest Crc32::finish() {
  return big_endian_digest(value_);
}

void Crc32c::update(std::span<const std::byte> data) {
  value_ = crc32c_update(value_, data);
}
Digest Crc32c::finish() {
  return big_endian_digest(value_);
}

void Crc64Nvme::update(std::span<const std::byte> data) {
  value_ = crc64nvme_update(value_, data);
}
Digest Crc64Nvme::finish() {
  return big_endian_digest(value_);
}

std::unique_ptr<Checksum> make_checksum(ChecksumAlgorithm algorithm) {
  switch (algorithm) {
    case ChecksumAlgorithm::crc32:
      return std::make_unique<Crc32>();
    case ChecksumAlgorithm::crc32c:
      return std::make_unique<Crc32c>();
    case ChecksumAlgorithm::crc64nvme:
      return std::make_unique<Crc64Nvme>();
    case ChecksumAlgorithm::sha1:
      return std::make_unique<Sha1>();
    case ChecksumAlgorithm::sha256:
      return std::make_unique<Sha256>();
    case ChecksumAlgorithm::md5:
      return std::make_unique<Md5>();
  }
  throw std::invalid_argument("make_checksum: unknown algorithm");
}

Digest compute_checksum(ChecksumAlgorithm algorithm, std::span<const std::byte> data) {
  auto checksum = make_checksum(algorithm);
  checksum->update(data);
  return checksum->finish();
}

Digest compute_checksum(ChecksumAlgorithm algorithm, std::string_view data) {
  return compute_checksum(algorithm, std::as_bytes(std::span(data.data(), data.size())));
}

}  // namespace s3up
