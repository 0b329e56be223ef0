// message_digests.cpp: SHA1, SHA256 and MD5 over OpenSSL's low-level hash functions, the hash state held
// inside each object, so that update(), finish() and reset() never allocate.
//
// Why the deprecated API: OpenSSL 3.0's EVP_DigestInit_ex frees the provider's digest context and creates
// a new one, one malloc per reset() (measured with a counting malloc), and no EVP call avoids it in 3.0:
// EVP_DigestInit_ex2, EVP_MD_CTX_copy_ex, EVP_MAC_init with a NULL key and the one-shots all allocate.
// SHA1_*, SHA256_* and MD5_* work on a caller-owned struct and run the same assembly as the default
// provider, which is built on them. They are deprecated in 3.0 but exported; this file alone uses them,
// so the deprecation warnings are silenced here only.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/md5.h>
#include <openssl/sha.h>

#include <new>

#include "s3up/checksum.h"

namespace s3up {
namespace {

// The objects keep the OpenSSL struct in a byte array so that the public header needs no OpenSSL header.
template <typename Context, std::size_t Size>
Context& context_in(std::array<std::byte, Size>& state) {
  static_assert(sizeof(Context) == Size, "the state array must be exactly OpenSSL's context struct");
  static_assert(alignof(Context) <= 8, "the state array is 8-byte aligned");
  return *std::launder(reinterpret_cast<Context*>(state.data()));
}

template <std::size_t Size>
Digest digest_of(const std::array<unsigned char, Size>& out) {
  return Digest(std::as_bytes(std::span(out)));
}

}  // namespace

// The *_Init, *_Update and *_Final functions cannot fail (they return 1 unconditionally), so their
// results are not checked.

Sha1::Sha1() {
  ::new (state_.data()) SHA_CTX;
  reset();
}
void Sha1::reset() {
  SHA1_Init(&context_in<SHA_CTX>(state_));
}
void Sha1::update(std::span<const std::byte> data) {
  SHA1_Update(&context_in<SHA_CTX>(state_), data.data(), data.size());
}
Digest Sha1::finish() {
  std::array<unsigned char, SHA_DIGEST_LENGTH> out{};
  SHA1_Final(out.data(), &context_in<SHA_CTX>(state_));
  return digest_of(out);
}

Sha256::Sha256() {
  ::new (state_.data()) SHA256_CTX;
  reset();
}
void Sha256::reset() {
  SHA256_Init(&context_in<SHA256_CTX>(state_));
}
void Sha256::update(std::span<const std::byte> data) {
  SHA256_Update(&context_in<SHA256_CTX>(state_), data.data(), data.size());
}
Digest Sha256::finish() {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> out{};
  SHA256_Final(out.data(), &context_in<SHA256_CTX>(state_));
  return digest_of(out);
}

Md5::Md5() {
  ::new (state_.data()) MD5_CTX;
  reset();
}
void Md5::reset() {
  MD5_Init(&context_in<MD5_CTX>(state_));
}
void Md5::update(std::span<const std::byte> data) {
  MD5_Update(&context_in<MD5_CTX>(state_), data.data(), data.size());
}
Digest Md5::finish() {
  std::array<unsigned char, MD5_DIGEST_LENGTH> out{};
  MD5_Final(out.data(), &context_in<MD5_CTX>(state_));
  return digest_of(out);
}

}  // namespace s3up
