// part_buffer_pool.cpp: the bounded pool of reused part buffers.
#include "transfer/part_buffer_pool.h"

namespace s3up {

PartBufferPool::PartBufferPool(std::size_t count, std::size_t part_size)
    : count_(count), part_size_(part_size) {
  buffers_.reserve(count_);
  free_.reserve(count_);
}

std::span<std::byte> PartBufferPool::acquire() {
  std::unique_lock lock(mutex_);
  released_.wait(lock, [this] { return closed_ || !free_.empty() || buffers_.size() < count_; });
  if (closed_) return {};
  if (free_.empty()) {
    // Not value-initialised: every byte is written by a read before it is sent.
    buffers_.push_back(std::make_unique_for_overwrite<std::byte[]>(part_size_));
    return {buffers_.back().get(), part_size_};
  }
  std::byte* buffer = free_.back();
  free_.pop_back();
  return {buffer, part_size_};
}

void PartBufferPool::release(std::span<std::byte> buffer) {
  if (buffer.data() == nullptr) return;
  {
    std::lock_guard lock(mutex_);
    free_.push_back(buffer.data());
  }
  released_.notify_one();
}

void PartBufferPool::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  released_.notify_all();
}

std::size_t PartBufferPool::allocated() const {
  std::lock_guard lock(mutex_);
  return buffers_.size();
}

}  // namespace s3up
