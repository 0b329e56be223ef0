// page_memory.h: anonymous memory mappings for large object buffers, and the pool that recycles them.
// Faulting fresh pages in is slow (the kernel clears each one; on virtual machines ~0.2 GB/s one at a time),
// so a new mapping is populated with huge pages in one call, and a freed one is kept for the next object.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <utility>

namespace s3up::mock {

class PageMemory {
 public:
  PageMemory() = default;
  explicit PageMemory(std::size_t size);  // throws std::bad_alloc if the mapping fails
  ~PageMemory();
  PageMemory(PageMemory&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  PageMemory& operator=(PageMemory&& other) noexcept;
  PageMemory(const PageMemory&) = delete;
  PageMemory& operator=(const PageMemory&) = delete;

  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

// Mappings freed by deleted or replaced objects, a few of them kept up to a byte budget: a recycled mapping
// is already faulted in, so repeated large uploads skip the page clearing. Safe to use from many threads;
// never allocates.
class PagePool {
 public:
  explicit PagePool(std::size_t budget) : budget_(budget) {}

  // A kept mapping of at least `size` bytes (and at most twice that, so a small object never pins a large
  // mapping), else a new one. Its old contents are not cleared: callers read back only what they wrote.
  PageMemory take(std::size_t size);
  // Keeps the mapping if it fits the budget, unmapping the oldest kept ones to make room.
  void give(PageMemory pages) noexcept;

 private:
  // Enough for the parts of a 2 GiB multipart upload in 8 MiB parts: a deleted multipart object's parts come
  // back faulted in for the next one, as a single large object's mapping does.
  static constexpr std::size_t max_kept = 256;

  std::mutex mutex_;
  std::array<PageMemory, max_kept> kept_;  // [0, count_), oldest first
  std::size_t count_ = 0;
  std::size_t kept_bytes_ = 0;
  std::size_t budget_;
};

}  // namespace s3up::mock
