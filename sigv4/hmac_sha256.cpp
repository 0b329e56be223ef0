// hmac_sha256.cpp: HMAC-SHA256 (RFC 2104) with the key absorbed once. SHA-256 of (key ^ ipad) and of
// (key ^ opad) start every inner and outer hash, so the constructor hashes those blocks once and mac()
// resumes from copies of the two states: no re-keying, and no allocation per message.
#include "s3up/sigv4.h"

namespace s3up::sigv4 {

HmacSha256::HmacSha256(std::span<const std::byte> key) {
  constexpr std::size_t block_size = 64;  // SHA-256 block
  std::array<std::byte, block_size> block{};
  if (key.size() > block_size) {
    // RFC 2104: keys longer than a block are hashed first.
    Sha256 key_hash;
    key_hash.update(key);
    const Digest hashed = key_hash.finish();
    std::copy(hashed.bytes().begin(), hashed.bytes().end(), block.begin());
  } else {
    std::copy(key.begin(), key.end(), block.begin());
  }
  std::array<std::byte, block_size> inner_pad{};
  std::array<std::byte, block_size> outer_pad{};
  for (std::size_t i = 0; i < block_size; ++i) {
    inner_pad[i] = block[i] ^ std::byte{0x36};
    outer_pad[i] = block[i] ^ std::byte{0x5c};
  }
  inner_.update(inner_pad);
  outer_.update(outer_pad);
}

std::array<std::byte, 32> HmacSha256::mac(std::span<const std::byte> message) {
  Sha256 inner = inner_;  // a struct copy of the keyed state; inner_ stays keyed for the next message
  inner.update(message);
  const Digest inner_hash = inner.finish();
  Sha256 outer = outer_;
  outer.update(inner_hash.bytes());
  const Digest outer_hash = outer.finish();
  std::array<std::byte, 32> out{};
  std::copy(outer_hash.bytes().begin(), outer_hash.bytes().end(), out.begin());
  return out;
}

}  // namespace s3up::sigv4
