// bench/counting_malloc.cpp: the counting allocator. Defining malloc and friends in the program interposes
// them for every shared library too (the dynamic linker binds libcrypto's and libcurl's malloc to these);
// each one counts when counting is on and forwards to glibc's own allocator through its __libc_* entry
// points, so behaviour and speed are glibc's.
#include "counting_malloc.h"

#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdlib>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void __libc_free(void* pointer);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
}

namespace {

// Globals by necessity: malloc has no context argument to carry a counter. Relaxed atomics: the counts are
// read only after the counted work has finished on the reading thread, or after the other threads joined.
std::atomic<bool> counting{false};
std::atomic<std::uint64_t> allocations{0};
std::atomic<std::uint64_t> reallocations{0};
std::atomic<std::uint64_t> allocated_bytes{0};
std::atomic<std::uint64_t> frees{0};

void note_allocation(std::size_t size) {
  if (!counting.load(std::memory_order_relaxed)) return;
  allocations.fetch_add(1, std::memory_order_relaxed);
  allocated_bytes.fetch_add(size, std::memory_order_relaxed);
}

}  // namespace

namespace s3up::bench {

void set_allocation_counting(bool on) {
  counting.store(on, std::memory_order_seq_cst);
}

AllocationCounts allocation_counts() {
  return {allocations.load(std::memory_order_relaxed), reallocations.load(std::memory_order_relaxed),
          allocated_bytes.load(std::memory_order_relaxed), frees.load(std::memory_order_relaxed)};
}

void reset_allocation_counts() {
  allocations = 0;
  reallocations = 0;
  allocated_bytes = 0;
  frees = 0;
}

}  // namespace s3up::bench

extern "C" {

void* malloc(std::size_t size) noexcept {
  note_allocation(size);
  return __libc_malloc(size);
}

void* calloc(std::size_t count, std::size_t size) noexcept {
  note_allocation(count * size);
  return __libc_calloc(count, size);
}

void* realloc(void* pointer, std::size_t size) noexcept {
  if (pointer == nullptr) {
    note_allocation(size);
  } else if (counting.load(std::memory_order_relaxed)) {
    reallocations.fetch_add(1, std::memory_order_relaxed);
    allocated_bytes.fetch_add(size, std::memory_order_relaxed);
  }
  return __libc_realloc(pointer, size);
}

void free(void* pointer) noexcept {
  if (pointer != nullptr && counting.load(std::memory_order_relaxed))
    frees.fetch_add(1, std::memory_order_relaxed);
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
  // The POSIX contract: a power of two that is a multiple of sizeof(void*), else EINVAL.
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  note_allocation(size);
  void* pointer = __libc_memalign(alignment, size);
  if (pointer == nullptr) return ENOMEM;
  *result = pointer;
  return 0;
}

}  // extern "C"
