// object_buffer.cpp: the object's final in-memory buffer (heap, or a pooled page mapping), and
// ObjectWriter::append.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "object_store.h"

namespace s3up::mock {

namespace {

constexpr std::size_t page_memory_threshold = 1 << 20;

}  // namespace

ObjectBuffer::~ObjectBuffer() {
  if (pool_) pool_->give(std::move(pages_));
}

void ObjectBuffer::reserve_exact(std::size_t size) {
  if (size > capacity_) reallocate(size);
  exact_ = true;
}

void ObjectBuffer::reallocate(std::size_t capacity) {
  std::unique_ptr<std::byte[]> heap;
  PageMemory pages;
  std::byte* bigger;
  if (capacity >= page_memory_threshold) {
    pages = pool_ ? pool_->take(capacity) : PageMemory(capacity);
    bigger = pages.data();
  } else {
    heap = std::make_unique_for_overwrite<std::byte[]>(capacity);
    bigger = heap.get();
  }
  if (size_ > 0) std::memcpy(bigger, data_, size_);
  heap_ = std::move(heap);
  std::swap(pages_, pages);
  if (pool_) pool_->give(std::move(pages));  // the outgrown mapping, if any
  data_ = bigger;
  capacity_ = capacity;
}

std::span<std::byte> ObjectBuffer::prepare(std::size_t want) {
  if (capacity_ == size_) {
    // The request announced its size and sends more: the callers' length checks should have stopped it.
    if (exact_) throw std::length_error("object body longer than its announced size");
    // Unknown final size (HTTP chunked body without a decoded length): grow geometrically.
    reallocate(std::max({capacity_ * 2, size_ + want, std::size_t{64 * 1024}}));
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
