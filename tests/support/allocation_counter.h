// tests/support/allocation_counter.h: counts the heap allocations a thread makes, for the tests and
// benchmarks that prove a streaming path allocates nothing. It replaces, for the whole program, the global
// operator new (C++ allocations) and the C allocator entry points malloc, calloc, realloc, aligned_alloc,
// posix_memalign, memalign and free, forwarding them to glibc's __libc_* implementations. Replacing malloc
// is what makes OpenSSL's and other C libraries' allocations visible, which counting operator new alone
// would miss.
//
// The replacements are definitions, not inline: include this header in exactly ONE source file of a
// program. glibc only (the __libc_* entry points); a test of this kind is a Linux-only test anyway.
#pragma once

#include <malloc.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* pointer);
}

namespace s3up::test {

namespace allocation_detail {

// Per thread, so that other threads (a server, a logger) cannot disturb a count. Plain integers with
// constant initialisation in the program's own TLS block: reading them needs no allocation or lazy set-up,
// which matters inside malloc.
struct Counts {
  long operator_new = 0;  // calls of the global operator new (and so of new[] and the nothrow forms)
  long malloc = 0;        // blocks obtained through any entry point, operator new included
  long free = 0;          // blocks given back
};
constinit thread_local Counts counts;

}  // namespace allocation_detail

// What a thread allocated over some span of time.
struct Allocations {
  long operator_new = 0;  // C++ allocations: global operator new calls
  long malloc = 0;        // every block obtained: C++ allocations and C libraries' (OpenSSL's) alike
  long kept = 0;          // blocks obtained minus blocks given back: 0 when all were freed again
};

// Counts this thread's allocations from construction on.
class AllocationCounter {
 public:
  AllocationCounter() : start_(allocation_detail::counts) {}

  // What this thread allocated since construction. Take it once, before checking anything: a test
  // framework reporting a check may allocate, and would be counted by a later read.
  Allocations counted() const {
    const allocation_detail::Counts& now = allocation_detail::counts;
    const long malloc = now.malloc - start_.malloc;
    return {now.operator_new - start_.operator_new, malloc, malloc - (now.free - start_.free)};
  }

 private:
  allocation_detail::Counts start_;
};

}  // namespace s3up::test

// ---- The replacements (one definition per program: see the top of the file).

extern "C" {

void* malloc(std::size_t size) noexcept {
  ++s3up::test::allocation_detail::counts.malloc;
  return __libc_malloc(size);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  ++s3up::test::allocation_detail::counts.malloc;
  return __libc_calloc(count, size);
}

// realloc(p, n) with p set gives a block back and takes another; with p null it only takes one.
void* realloc(void* pointer, std::size_t size) noexcept {
  ++s3up::test::allocation_detail::counts.malloc;
  if (pointer) ++s3up::test::allocation_detail::counts.free;
  return __libc_realloc(pointer, size);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  ++s3up::test::allocation_detail::counts.malloc;
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  return memalign(alignment, size);
}

int posix_memalign(void** pointer, std::size_t alignment, std::size_t size) noexcept {
  // The checks glibc makes: a power of two and a multiple of sizeof(void*).
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
  void* block = memalign(alignment, size);
  if (!block) return ENOMEM;
  *pointer = block;
  return 0;
}

void free(void* pointer) noexcept {
  if (pointer) ++s3up::test::allocation_detail::counts.free;
  __libc_free(pointer);
}

}  // extern "C"

// operator new[] and the nothrow forms of libstdc++ call this one. The operator delete replacements are
// kept out of line: inlined into a test, GCC would see a new-expression's block reach free() and report a
// mismatched deallocation (-Wmismatched-new-delete), though free() is exactly what releases it here.
void* operator new(std::size_t size) {
  ++s3up::test::allocation_detail::counts.operator_new;
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}

[[gnu::noinline]] void operator delete(void* pointer) noexcept {
  std::free(pointer);
}

[[gnu::noinline]] void operator delete(void* pointer, std::size_t) noexcept {
  std::free(pointer);
}
