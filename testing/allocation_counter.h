// testing/allocation_counter.h: counts heap allocations, for the tests and benchmarks that prove a streaming
// path allocates nothing. allocation_counter.cpp replaces, in the program that links it, the global operator
// new/delete and the C allocator (malloc, calloc, realloc, aligned_alloc, posix_memalign, memalign, valloc,
// free), forwarding to glibc's __libc_* entry points. Replacing malloc is what makes OpenSSL's, libcurl's and
// other C libraries' allocations visible, which counting operator new alone would miss. glibc only.
//
// Two views of the same events:
//  - per thread, always on (AllocationCounter): other threads (a server, a logger) cannot disturb a count;
//  - process-wide, switched on and off (CountingScope, set_allocation_counting): for work spread over threads
//    (the mock server's connection threads, curl's resolver thread) or a whole process.
#pragma once

#include <cstdint>

namespace s3up::test {

// ---- Per thread.

// What a thread allocated over some span of time.
struct Allocations {
  long operator_new = 0;  // C++ allocations: global operator new calls (new[] and the nothrow forms too)
  long malloc = 0;        // every block obtained: C++ allocations and C libraries' (OpenSSL's) alike
  long kept = 0;          // blocks obtained minus blocks given back: 0 when all were freed again
};

// Counts this thread's allocations from construction on.
class AllocationCounter {
 public:
  AllocationCounter();

  // What this thread allocated since construction. Take it once, before checking anything: a test
  // framework reporting a check may allocate, and would be counted by a later read.
  Allocations counted() const;

 private:
  long operator_new_;
  long malloc_;
  long free_;
};

// ---- Process-wide.

struct AllocationCounts {
  std::uint64_t operator_new = 0;   // global operator new calls (each also counted below, by its malloc)
  std::uint64_t allocations = 0;    // malloc, calloc, aligned_alloc, posix_memalign, memalign, valloc
  std::uint64_t reallocations = 0;  // realloc of a block (each may move it: counted apart, and in bytes)
  std::uint64_t bytes = 0;          // bytes asked for by all of the above
  std::uint64_t frees = 0;          // free of a non-null pointer

  std::uint64_t calls() const { return allocations + reallocations; }
};

// Counting is off until turned on. It is process-wide (every thread), so allocations made by curl's resolver
// thread or the server threads count too while it is on.
void set_allocation_counting(bool on);
AllocationCounts allocation_counts();

inline AllocationCounts operator+(const AllocationCounts& a, const AllocationCounts& b) {
  return {a.operator_new + b.operator_new, a.allocations + b.allocations, a.reallocations + b.reallocations,
          a.bytes + b.bytes, a.frees + b.frees};
}

inline AllocationCounts operator-(const AllocationCounts& a, const AllocationCounts& b) {
  return {a.operator_new - b.operator_new, a.allocations - b.allocations, a.reallocations - b.reallocations,
          a.bytes - b.bytes, a.frees - b.frees};
}

// Counts what every thread does in its lifetime: construct, do the work, read counts(); turns counting off
// at the end.
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

}  // namespace s3up::test
