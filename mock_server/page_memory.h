// page_memory.h: RAII owner of an anonymous memory mapping for large object buffers. Faulting fresh pages
// in one at a time is slow (on virtual machines especially: ~0.2 GB/s); huge pages populated in one call
// are what lets the server ingest a body at memory speed.
#pragma once

#include <cstddef>
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

}  // namespace s3up::mock
