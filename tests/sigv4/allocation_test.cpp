// allocation_test.cpp: signing a chunk or a trailer makes no C++ allocation (the string to sign is rebuilt
// in the signer's reserved buffer), and OpenSSL's per-signature mallocs are bounded and freed again.
// Counted by tests/support/allocation_counter.h, which sees malloc as well as operator new.
#include <catch2/catch.hpp>

#include "allocation_counter.h"
#include "s3_examples.h"

TEST_CASE("chunk and trailer signing: no C++ allocation, OpenSSL's blocks bounded and freed") {
  namespace sigv4 = s3up::sigv4;
  sigv4::ChunkSigner signer(
      sigv4::derive_signing_key(s3_examples::secret_access_key, s3_examples::scope()), s3_examples::amz_date,
      s3_examples::scope(),
      s3_examples::signature_of("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"));
  const auto chunk1 = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, std::string(65536, 'a'));
  const auto chunk2 = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, std::string(1024, 'a'));
  const auto empty = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, "");
  sigv4::Signature last{};
  constexpr int rounds = 100;
  s3up::test::AllocationCounter counter;
  for (int i = 0; i < rounds; ++i) {
    signer.sign_chunk(chunk1);
    signer.sign_chunk(chunk2);
    last = signer.sign_chunk(empty);
    signer.sign_trailer("x-amz-checksum-crc32c:sOO8/Q==\n");
    signer.restart();
  }
  const s3up::test::Allocations counted = counter.counted();
  CHECK(counted.operator_new == 0);
  // OpenSSL 3.0's EVP_DigestInit_ex re-creates the provider's digest context, one malloc per call (no EVP
  // way around it in 3.0): HMAC's inner and outer hash per chunk signature, plus the canonical trailer's
  // SHA-256 for the trailer signature. Each block replaces one just freed.
  CHECK(counted.malloc <= rounds * (3 * 2 + 3));
  CHECK(counted.kept == 0);
  // The loop really signed: the last zero-chunk signature is the §4.3 one.
  CHECK(sigv4::to_string_view(last) == "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
}

TEST_CASE("the allocation counter sees C++ and OpenSSL allocations (checks the checker)") {
  // A direct call, unlike a new-expression, may not be optimised away.
  s3up::test::AllocationCounter cpp;
  ::operator delete(::operator new(1000));
  const s3up::test::Allocations cpp_counted = cpp.counted();
  CHECK(cpp_counted.operator_new == 1);
  CHECK(cpp_counted.kept == 0);

  // OpenSSL allocates through malloc, not operator new: its blocks are counted too.
  s3up::test::AllocationCounter openssl;
  s3up::sigv4::HmacSha256 hmac(std::as_bytes(std::span("key", 3)));
  const s3up::test::Allocations openssl_counted = openssl.counted();
  CHECK(openssl_counted.operator_new == 1);  // the EvpDigest's context holder
  CHECK(openssl_counted.malloc >= 3);        // that holder, the EVP_MD_CTX and the provider's digest context
}
