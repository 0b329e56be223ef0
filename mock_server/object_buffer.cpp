// object_buffer.cpp: the object's final in-memory buffer (heap or page mapping), and ObjectWriter::append.
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#include "object_store.h"

namespace s3up::mock {

PageMemory::PageMemory(std::size_t size) : size_(size) {
  void* mapping = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<std::byte*>(mapping);
  // Both are hints: on kernels without them the pages simply fault in as they are written.
  ::madvise(mapping, size, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
  ::madvise(mapping, size, MADV_POPULATE_WRITE);
#endif
}

PageMemory::~PageMemory() {
  if (data_) ::munmap(data_, size_);
}

PageMemory& PageMemory::operator=(PageMemory&& other) noexcept {
  if (this != &other) {
    if (data_) ::munmap(data_, size_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

namespace {

constexpr std::size_t page_memory_threshold = 1 << 20;

}  // namespace

void ObjectBuffer::reserve(std::size_t capacity) {
  if (capacity <= capacity_) return;
  std::unique_ptr<std::byte[]> heap;
  PageMemory pages;
  std::byte* bigger;
  if (capacity >= page_memory_threshold) {
    pages = PageMemory(capacity);
    bigger = pages.data();
  } else {
    heap = std::make_unique_for_overwrite<std::byte[]>(capacity);
    bigger = heap.get();
  }
  if (size_ > 0) std::memcpy(bigger, data_, size_);
  heap_ = std::move(heap);
  pages_ = std::move(pages);
  data_ = bigger;
  capacity_ = capacity;
}

std::span<std::byte> ObjectBuffer::prepare(std::size_t want) {
  if (capacity_ == size_) {
    // Unknown final size (chunked upload without a decoded length): grow geometrically.
    reserve(std::max({capacity_ * 2, size_ + want, std::size_t{64 * 1024}}));
  }
  return {data_ + size_, std::min(want, capacity_ - size_)};
}

void ObjectWriter::append(std::span<const std::byte> data) {
  while (!data.empty()) {
    auto space = prepare(data.size());
    std::memcpy(space.data(), data.data(), space.size());
    commit(space.size());
    data = data.subspan(space.size());
  }
}

}  // namespace s3up::mock
