// allocation_test.cpp: signing a chunk or a trailer makes no C++ heap allocation (the string to sign is
// rebuilt in the signer's reserved buffer). Counts global operator new; OpenSSL's own malloc is not seen.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "s3_examples.h"

namespace {
std::atomic<long> allocations{0};
}  // namespace

// Replacing the global allocation functions is the standard way to observe C++ allocations in a test.
void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

TEST_CASE("chunk and trailer signing allocate nothing per call") {
  namespace sigv4 = s3up::sigv4;
  sigv4::ChunkSigner signer(
      sigv4::derive_signing_key(s3_examples::secret_access_key, s3_examples::scope()), s3_examples::amz_date,
      s3_examples::scope(),
      s3_examples::signature_of("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"));
  const auto chunk1 = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, std::string(65536, 'a'));
  const auto chunk2 = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, std::string(1024, 'a'));
  const auto empty = s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, "");
  const long before = allocations.load();
  sigv4::Signature last{};
  for (int i = 0; i < 100; ++i) {
    signer.sign_chunk(chunk1);
    signer.sign_chunk(chunk2);
    last = signer.sign_chunk(empty);
    signer.sign_trailer("x-amz-checksum-crc32c:sOO8/Q==\n");
    signer.restart();
  }
  CHECK(allocations.load() - before == 0);
  // The loop really signed: the last zero-chunk signature is the §4.3 one.
  CHECK(sigv4::to_string_view(last) == "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
  // And the counter really counts: a heap-sized string is seen.
  // (A direct ::operator new call, unlike a new-expression, may not be optimised away.)
  const long probe_before = allocations.load();
  ::operator delete(::operator new(1000));
  CHECK(allocations.load() - probe_before == 1);
}
