// testing/allocation_counter.cpp: the counting allocator. Defining malloc and friends in the program
// interposes them for every shared library too (the dynamic linker binds libcrypto's and libcurl's malloc to
// these); each one counts and forwards to glibc's own allocator, so behaviour and speed are glibc's. Kept
// out of line, in its own file, so that the compiler cannot inline the replacements into (and misjudge) the
// code they count.
#include "allocation_counter.h"

#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void __libc_free(void* pointer);
}

namespace {

// Globals by necessity: malloc has no context argument to carry a counter.

// Per thread: plain integers with constant initialisation in the static TLS block (initial-exec, valid for
// the program and for a library loaded with it, LD_PRELOAD included), so reading them needs no allocation
// or lazy set-up, which matters inside malloc.
struct ThreadCounts {
  long operator_new = 0;  // calls of the global operator new
  long malloc = 0;        // blocks obtained through any entry point, operator new and realloc included
  long free = 0;          // blocks given back, realloc of a block included
};
[[gnu::tls_model("initial-exec")]] constinit thread_local ThreadCounts thread_counts;

// Process-wide, counted only while switched on. Relaxed atomics: the counts are read only after the counted
// work has finished on the reading thread, or after the other threads joined (or answered).
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> operator_news{0};
std::atomic<std::uint64_t> allocations{0};
std::atomic<std::uint64_t> reallocations{0};
std::atomic<std::uint64_t> allocated_bytes{0};
std::atomic<std::uint64_t> frees{0};

// A new block, from any entry point but realloc.
void note_allocation(std::size_t size) {
  ++thread_counts.malloc;
  if (!counting.load(std::memory_order_relaxed)) return;
  allocations.fetch_add(1, std::memory_order_relaxed);
  allocated_bytes.fetch_add(size, std::memory_order_relaxed);
}

}  // namespace

namespace s3up::test {

AllocationCounter::AllocationCounter()
    : operator_new_(thread_counts.operator_new), malloc_(thread_counts.malloc), free_(thread_counts.free) {}

Allocations AllocationCounter::counted() const {
  const long malloc = thread_counts.malloc - malloc_;
  return {thread_counts.operator_new - operator_new_, malloc, malloc - (thread_counts.free - free_)};
}

void set_allocation_counting(bool on) {
  counting.store(on, std::memory_order_seq_cst);
}

AllocationCounts allocation_counts() {
  return {operator_news.load(std::memory_order_relaxed), allocations.load(std::memory_order_relaxed),
          reallocations.load(std::memory_order_relaxed), allocated_bytes.load(std::memory_order_relaxed),
          frees.load(std::memory_order_relaxed)};
}

}  // namespace s3up::test

// ---- The replacements.

extern "C" {

void* malloc(std::size_t size) noexcept {
  note_allocation(size);
  return __libc_malloc(size);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  note_allocation(count * size);
  return __libc_calloc(count, size);
}

// realloc(p, n) with p set gives a block back and takes another (per thread), a reallocation (process-wide);
// with p null it only takes one.
void* realloc(void* pointer, std::size_t size) noexcept {
  if (pointer == nullptr) {
    note_allocation(size);
  } else {
    ++thread_counts.malloc;
    ++thread_counts.free;
    if (counting.load(std::memory_order_relaxed)) {
      reallocations.fetch_add(1, std::memory_order_relaxed);
      allocated_bytes.fetch_add(size, std::memory_order_relaxed);
    }
  }
  return __libc_realloc(pointer, size);
}

void free(void* pointer) noexcept {
  if (pointer != nullptr) {
    ++thread_counts.free;
    if (counting.load(std::memory_order_relaxed)) frees.fetch_add(1, std::memory_order_relaxed);
  }
  __libc_free(pointer);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  note_allocation(size);
  return __libc_memalign(alignment, size);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  note_allocation(size);
  return __libc_memalign(alignment, size);
}

void* valloc(std::size_t size) noexcept {
  note_allocation(size);
  return __libc_valloc(size);
}

int posix_memalign(void** result, std::size_t alignment, std::size_t size) noexcept {
  // The checks glibc makes: a power of two and a multiple of sizeof(void*), else EINVAL.
  if (alignment == 0 || alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  note_allocation(size);
  void* pointer = __libc_memalign(alignment, size);
  if (pointer == nullptr) return ENOMEM;
  *result = pointer;
  return 0;
}

}  // extern "C"

// operator new[] and the nothrow forms of libstdc++ call this one. It takes its block from the malloc above,
// so a C++ allocation is counted both as an operator new call and as a block.
void* operator new(std::size_t size) {
  ++thread_counts.operator_new;
  if (counting.load(std::memory_order_relaxed)) operator_news.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}

void operator delete(void* pointer) noexcept {
  std::free(pointer);
}

void operator delete(void* pointer, std::size_t) noexcept {
  std::free(pointer);
}
