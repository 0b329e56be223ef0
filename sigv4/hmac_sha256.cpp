// hmac_sha256.cpp: HMAC-SHA256 (RFC 2104) over one reusable SHA-256 context. The padded keys are computed
// once, so mac() only resets and feeds the context: no C++ allocation per message (each reset costs one
// block inside OpenSSL 3.0, see evp_digest.cpp).
#include "s3up/sigv4.h"

namespace s3up::sigv4 {

HmacSha256::HmacSha256(std::span<const std::byte> key) {
  constexpr std::size_t block_size = 64;  // SHA-256 block
  std::array<std::byte, block_size> block{};
  if (key.size() > block_size) {
    // RFC 2104: keys longer than a block are hashed first.
    sha256_.update(key);
    const Digest hashed = sha256_.finish();
    std::copy(hashed.bytes().begin(), hashed.bytes().end(), block.begin());
  } else {
    std::copy(key.begin(), key.end(), block.begin());
  }
  for (std::size_t i = 0; i < block_size; ++i) {
    inner_pad_[i] = block[i] ^ std::byte{0x36};
    outer_pad_[i] = block[i] ^ std::byte{0x5c};
  }
}

std::array<std::byte, 32> HmacSha256::mac(std::span<const std::byte> message) {
  sha256_.reset();
  sha256_.update(inner_pad_);
  sha256_.update(message);
  const Digest inner = sha256_.finish();
  sha256_.reset();
  sha256_.update(outer_pad_);
  sha256_.update(inner.bytes());
  const Digest outer = sha256_.finish();
  std::array<std::byte, 32> out{};
  std::copy(outer.bytes().begin(), outer.bytes().end(), out.begin());
  return out;
}

}  // namespace s3up::sigv4
