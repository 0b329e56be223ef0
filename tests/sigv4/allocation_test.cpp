// allocation_test.cpp: signing a chunk or a trailer allocates nothing, in C++ or in OpenSSL (the string to
// sign is rebuilt in the signer's reserved buffer; HMAC resumes from copies of its keyed SHA-256 states).
// Counted by testing/allocation_counter.h, which sees malloc as well as operator new.
#include <string.h>

#include <catch2/catch.hpp>

#include "allocation_counter.h"
#include "s3_examples.h"

TEST_CASE("chunk and trailer signing: no heap allocation at all") {
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
  CHECK(counted.malloc == 0);
  // The loop really signed: the last zero-chunk signature is the §4.3 one.
  CHECK(sigv4::to_string_view(last) == "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
}

TEST_CASE("HMAC-SHA256: no heap allocation, constructing or signing") {
  // RFC 4231 test case 2, key "Jefe": the keyed states really are HMAC's.
  s3up::test::AllocationCounter counter;
  s3up::sigv4::HmacSha256 hmac(std::as_bytes(std::span("Jefe", 4)));
  std::array<std::byte, 32> mac{};
  for (int i = 0; i < 10; ++i) mac = hmac.mac(std::string_view("what do ya want for nothing?"));
  const s3up::test::Allocations counted = counter.counted();
  CHECK(counted.malloc == 0);
  CHECK(s3up::hex_encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("the allocation counter sees C++ and C library allocations (checks the checker)") {
  // A direct call, unlike a new-expression, may not be optimised away.
  s3up::test::AllocationCounter cpp;
  ::operator delete(::operator new(1000));
  const s3up::test::Allocations cpp_counted = cpp.counted();
  CHECK(cpp_counted.operator_new == 1);
  CHECK(cpp_counted.kept == 0);

  // C libraries (OpenSSL among them) allocate through malloc, not operator new: their blocks are counted
  // too. strdup mallocs inside glibc.
  s3up::test::AllocationCounter c_library;
  char* copy = strdup("counted");
  free(copy);
  const s3up::test::Allocations c_counted = c_library.counted();
  CHECK(c_counted.operator_new == 0);
  CHECK(c_counted.malloc == 1);
  CHECK(c_counted.kept == 0);
}
