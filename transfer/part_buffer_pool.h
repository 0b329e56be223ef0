// transfer/part_buffer_pool.h: the part buffers of a stream that cannot be split into ranges: at most
// `count` buffers of part_size bytes, each allocated the first time it is needed and reused for every later
// part, so that memory is count x part_size whatever the object's size.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace s3up {

class PartBufferPool {
 public:
  PartBufferPool(std::size_t count, std::size_t part_size);
  PartBufferPool(const PartBufferPool&) = delete;
  PartBufferPool& operator=(const PartBufferPool&) = delete;

  // A free buffer (part_size bytes), waiting for one to be released when all are taken; an empty span once
  // close() has been called.
  std::span<std::byte> acquire();
  // Gives a buffer from acquire() back for the next part.
  void release(std::span<std::byte> buffer);
  // Wakes every acquire(), now and later, with nothing: the upload failed.
  void close();

  std::size_t allocated() const;  // buffers made so far (for tests: never more than count)

 private:
  const std::size_t count_;
  const std::size_t part_size_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  std::vector<std::unique_ptr<std::byte[]>> buffers_;  // owned, at most count_
  std::vector<std::byte*> free_;                       // reserved up front: release() never allocates
  bool closed_ = false;
};

}  // namespace s3up
