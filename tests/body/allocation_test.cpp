// allocation_test.cpp: the streaming paths allocate nothing per call and nothing that grows with the
// object: fill() on the trailer, signed and raw encoders, and the header pre-read, counted by
// testing/allocation_counter.h, which sees OpenSSL's mallocs as well as C++ allocations.
#include <openssl/evp.h>

#include <catch2/catch.hpp>

#include "allocation_counter.h"
#include "body_test_util.h"

using s3up::test::AllocationCounter;

namespace {

// What fill() produced and allocated over a whole body.
struct Drained {
  std::uint64_t bytes = 0;
  s3up::test::Allocations allocations;
};

// Pulls the whole body through one preallocated buffer, counting allocations inside fill() only.
Drained drain_counting(s3up::BodyEncoder& encoder, std::vector<std::byte>& buffer) {
  Drained drained;
  for (;;) {
    AllocationCounter counter;
    const std::size_t n = encoder.fill(buffer);
    const s3up::test::Allocations counted = counter.counted();
    drained.allocations.operator_new += counted.operator_new;
    drained.allocations.malloc += counted.malloc;
    drained.allocations.kept += counted.kept;
    if (n == 0) return drained;
    drained.bytes += n;
  }
}

}  // namespace

TEST_CASE("no heap allocation in fill(): trailer and raw encoders, every trailer algorithm") {
  const std::string object = body_test::pattern(4 * 1024 * 1024 + 77, 5);
  std::vector<std::byte> buffer(16 * 1024 + 3);
  for (auto algorithm : body_test::trailer_algorithms()) {
    INFO(body_test::name_of(algorithm));
    s3up::MemorySource source(object);
    s3up::TrailerEncoder trailer(source, body_test::checksum_for(algorithm), 8192);
    const Drained drained = drain_counting(trailer, buffer);
    CHECK(drained.bytes == trailer.encoded_length());
    CHECK(drained.allocations.malloc == 0);  // SHA1 and SHA256 trailers too
  }
  s3up::MemorySource raw_source(object);
  s3up::RawBodyEncoder raw(raw_source);
  const Drained drained = drain_counting(raw, buffer);
  CHECK(drained.bytes == object.size());
  CHECK(drained.allocations.malloc == 0);
}

TEST_CASE("no heap allocation in fill(): signed encoder, every trailer algorithm, both chunk paths") {
  const std::string object = body_test::pattern(4 * 1024 * 1024 + 77, 5);
  constexpr std::size_t chunk_size = 65536;
  // 16 KiB + 3: no framed chunk fits, every chunk goes through the chunk buffer. 256 KiB: three framed
  // 64 KiB chunks fit, so most are read and hashed in place and the rest take the buffer.
  for (std::size_t buffer_size : {std::size_t{16 * 1024 + 3}, std::size_t{256 * 1024}}) {
    std::vector<std::byte> buffer(buffer_size);
    for (auto algorithm : body_test::trailer_algorithms()) {
      INFO(body_test::name_of(algorithm) << ", buffer " << buffer_size);
      s3up::MemorySource source(object);
      s3up::SignedChunkEncoder encoder(
          source,
          body_test::example_signer("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"),
          body_test::checksum_for(algorithm), chunk_size);
      const Drained drained = drain_counting(encoder, buffer);
      CHECK(drained.bytes == encoder.encoded_length());
      // Not even inside OpenSSL: chunk SHA-256 and HMAC run on states held in the encoder and signer.
      CHECK(drained.allocations.malloc == 0);
    }
  }
}

TEST_CASE("header pre-read: no heap allocation once its checksum object exists") {
  s3up::HeaderChecksumPreread preread(64 * 1024);
  const std::string warm_up = body_test::pattern(1000, 3);
  s3up::MemorySource warm_up_source(warm_up);
  preread.run(warm_up_source, s3up::ChecksumAlgorithm::sha256, true, true);  // creates the checksum object
  auto count_run = [&](std::size_t size) {
    const std::string object = body_test::pattern(size, 3);
    s3up::MemorySource source(object);
    AllocationCounter counter;
    const s3up::PrereadDigests digests = preread.run(source, s3up::ChecksumAlgorithm::sha256, true, true);
    const s3up::test::Allocations counted = counter.counted();
    CHECK(counted.operator_new == 0);
    CHECK(counted.kept == 0);
    CHECK(digests.bytes == size);
    return counted.malloc;
  };
  const long small = count_run(100 * 1000);
  const long large = count_run(5 * 1024 * 1024 + 1);  // 80 buffer refills
  CHECK(large == 0);
  CHECK(small == 0);
}

TEST_CASE("the allocation counter sees C++ and C allocations (checks the checker)") {
  // Direct calls, unlike new-expressions, may not be optimised away.
  AllocationCounter counter;
  void* block = ::operator new(1000);
  const s3up::test::Allocations held = counter.counted();
  ::operator delete(block);
  const s3up::test::Allocations released = counter.counted();
  CHECK(held.operator_new == 1);
  CHECK(held.malloc == 1);
  CHECK(held.kept == 1);
  CHECK(released.kept == 0);

  // OpenSSL allocates through malloc, not operator new: its blocks are counted too.
  AllocationCounter openssl;
  EVP_MD_CTX_free(EVP_MD_CTX_new());
  const s3up::test::Allocations counted = openssl.counted();
  CHECK(counted.operator_new == 0);
  CHECK(counted.malloc >= 1);
  CHECK(counted.kept == 0);
}
