// bench/counting_malloc.h: heap allocation counting for the benchmarks. counting_malloc.cpp replaces
// malloc, calloc, realloc, free, aligned_alloc, posix_memalign, memalign and valloc in the program that links
// it, so every allocation is seen (operator new, OpenSSL, libcurl, libstdc++), not only operator new.
#pragma once

#include <cstdint>

namespace s3up::bench {

struct AllocationCounts {
  std::uint64_t allocations = 0;    // malloc, calloc, aligned_alloc, posix_memalign, memalign, valloc
  std::uint64_t reallocations = 0;  // realloc (each may move the block: counted apart, and in bytes)
  std::uint64_t bytes = 0;          // bytes asked for by all of the above
  std::uint64_t frees = 0;          // free of a non-null pointer

  std::uint64_t calls() const { return allocations + reallocations; }
};

// Counting is off until turned on. It is process-wide (every thread), so allocations made by curl's resolver
// thread or the server threads count too while it is on.
void set_allocation_counting(bool on);
AllocationCounts allocation_counts();
void reset_allocation_counts();

inline AllocationCounts operator+(const AllocationCounts& a, const AllocationCounts& b) {
  return {a.allocations + b.allocations, a.reallocations + b.reallocations, a.bytes + b.bytes,
          a.frees + b.frees};
}

inline AllocationCounts operator-(const AllocationCounts& a, const AllocationCounts& b) {
  return {a.allocations - b.allocations, a.reallocations - b.reallocations, a.bytes - b.bytes,
          a.frees - b.frees};
}

// Counts what happens in its lifetime: construct, do the work, read counts(); turns counting off at the end.
class CountingScope {
 public:
  CountingScope() : start_(allocation_counts()) { set_allocation_counting(true); }
  ~CountingScope() { set_allocation_counting(false); }
  CountingScope(const CountingScope&) = delete;
  CountingScope& operator=(const CountingScope&) = delete;
  AllocationCounts counts() const { return allocation_counts() - start_; }

 private:
  AllocationCounts start_;
};

}  // namespace s3up::bench
