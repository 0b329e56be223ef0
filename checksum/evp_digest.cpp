// evp_digest.cpp: SHA1, SHA256 and MD5 through OpenSSL EVP. The EVP_MD is fetched and the EVP_MD_CTX is
// created once per EvpDigest, so update(), finish() and reset() only drive an existing context.
//
// OpenSSL 3.0's EVP_DigestInit_ex frees the provider's digest context and creates a new one, one malloc per
// reset() (measured with a counting malloc). No EVP call avoids it in 3.0: EVP_DigestInit_ex2 with or
// without the digest, EVP_MD_CTX_copy_ex into a context of the same digest (it duplicates the provider
// context), EVP_MAC_init with a NULL key (2 mallocs) and the one-shot SHA256()/EVP_Q_digest (3) all
// allocate. The block is freed before the next is made, so memory stays constant; the cost, about 30 ns
// per reset, is noise beside hashing a chunk (about 40 us for 64 KiB).
#include <openssl/evp.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "s3up/checksum.h"

namespace s3up {
namespace {

struct MdDeleter {
  void operator()(EVP_MD* md) const { EVP_MD_free(md); }
};
struct MdCtxDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

const char* openssl_name(ChecksumAlgorithm algorithm) {
  switch (algorithm) {
    case ChecksumAlgorithm::sha1:
      return "SHA1";
    case ChecksumAlgorithm::sha256:
      return "SHA256";
    case ChecksumAlgorithm::md5:
      return "MD5";
    default:
      throw std::invalid_argument("EvpDigest: not a SHA1/SHA256/MD5 algorithm");
  }
}

[[noreturn]] void fail(const char* what) {
  throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

}  // namespace

struct EvpDigest::EvpContext {
  // An explicitly fetched EVP_MD avoids OpenSSL 3's implicit fetch (a locked lookup) on every init.
  std::unique_ptr<EVP_MD, MdDeleter> md;
  std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx;
};

EvpDigest::EvpDigest(ChecksumAlgorithm algorithm) : algorithm_(algorithm), context_(new EvpContext) {
  const char* name = openssl_name(algorithm);
  context_->md.reset(EVP_MD_fetch(nullptr, name, nullptr));
  if (!context_->md) fail("EVP_MD_fetch");
  context_->ctx.reset(EVP_MD_CTX_new());
  if (!context_->ctx) fail("EVP_MD_CTX_new");
  reset();
}

EvpDigest::~EvpDigest() = default;
EvpDigest::EvpDigest(EvpDigest&&) noexcept = default;
EvpDigest& EvpDigest::operator=(EvpDigest&&) noexcept = default;

void EvpDigest::reset() {
  if (EVP_DigestInit_ex(context_->ctx.get(), context_->md.get(), nullptr) != 1) fail("EVP_DigestInit_ex");
}

void EvpDigest::update(std::span<const std::byte> data) {
  if (data.empty()) return;
  if (EVP_DigestUpdate(context_->ctx.get(), data.data(), data.size()) != 1) fail("EVP_DigestUpdate");
}

Digest EvpDigest::finish() {
  std::array<std::byte, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(context_->ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &size) != 1)
    fail("EVP_DigestFinal_ex");
  return Digest(std::span<const std::byte>(out.data(), size));
}

}  // namespace s3up
