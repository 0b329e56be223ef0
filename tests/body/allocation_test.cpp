// allocation_test.cpp: the streaming paths allocate nothing per call: fill() on the trailer, signed and raw
// encoders, after construction, counted by replacing the global operator new in this test binary.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <new>

#include "body_test_util.h"

namespace {

// Counts allocations only while a test has armed it; Catch2 itself allocates freely outside.
bool counting = false;
long allocations = 0;

class CountAllocations {
 public:
  CountAllocations() {
    allocations = 0;
    counting = true;
  }
  ~CountAllocations() { counting = false; }
  long count() const { return allocations; }
};

// Pulls the whole body through one preallocated buffer, counting allocations inside fill() only.
std::uint64_t drain_counting(s3up::BodyEncoder& encoder, std::vector<std::byte>& buffer, long& counted) {
  std::uint64_t total = 0;
  for (;;) {
    std::size_t n;
    {
      CountAllocations scope;
      n = encoder.fill(buffer);
      counted += scope.count();
    }
    if (n == 0) return total;
    total += n;
  }
}

}  // namespace

void* operator new(std::size_t size) {
  if (counting) ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

TEST_CASE("no heap allocation in fill(): trailer, signed and raw encoders") {
  const std::string object = body_test::pattern(4 * 1024 * 1024 + 77, 5);
  std::vector<std::byte> buffer(16 * 1024 + 3);
  for (auto algorithm : body_test::trailer_algorithms()) {
    INFO(body_test::name_of(algorithm));
    long counted = 0;
    s3up::MemorySource trailer_source(object);
    s3up::TrailerEncoder trailer(trailer_source, body_test::checksum_for(algorithm), 8192);
    CHECK(drain_counting(trailer, buffer, counted) == trailer.encoded_length());
    CHECK(counted == 0);

    counted = 0;
    s3up::MemorySource signed_source(object);
    s3up::SignedChunkEncoder signed_encoder(
        signed_source,
        body_test::example_signer("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"),
        body_test::checksum_for(algorithm), 65536);
    CHECK(drain_counting(signed_encoder, buffer, counted) == signed_encoder.encoded_length());
    CHECK(counted == 0);
  }
  long counted = 0;
  s3up::MemorySource raw_source(object);
  s3up::RawBodyEncoder raw(raw_source);
  CHECK(drain_counting(raw, buffer, counted) == object.size());
  CHECK(counted == 0);
}

TEST_CASE("the allocation counter sees allocations (checks the checker)") {
  CountAllocations scope;
  auto* p = new std::string(100, 'x');
  CHECK(scope.count() >= 1);
  delete p;
}
