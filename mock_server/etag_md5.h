// etag_md5.h: the MD5 behind a PutObject's ETag. MD5 is the slowest digest the server computes (~0.6 GB/s,
// and it cannot be split), so for a large object received into one fixed buffer a helper thread hashes the
// bytes in place, trailing the connection thread: hashing overlaps the reads instead of adding to them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <thread>

#include "s3up/checksum.h"

namespace s3up::mock {

class EtagMd5 {
 public:
  // fixed_buffer: the object's announced size of memory, where its bytes land in order and stay until this
  // is destroyed (ObjectWriter::fixed_buffer()). Empty or small: update() hashes inline instead.
  explicit EtagMd5(std::span<const std::byte> fixed_buffer);
  ~EtagMd5();  // stops the helper
  EtagMd5(const EtagMd5&) = delete;
  EtagMd5& operator=(const EtagMd5&) = delete;

  // The object's next bytes. With a helper, they must already be in the fixed buffer at their offset.
  void update(std::span<const std::byte> data);
  Digest finish();  // once, after the last update()

 private:
  void publish(std::uint64_t progress);
  void run();  // the helper thread
  void stop_helper(std::uint64_t final_progress);

  Md5 md5_;  // the helper's alone while it runs
  const std::byte* fixed_buffer_ = nullptr;
  std::uint64_t written_ = 0;
  std::uint64_t published_ = 0;
  // Bytes the helper may hash, with done_bit set once no more will come. The helper waits on it.
  std::atomic<std::uint64_t> progress_{0};
  std::atomic<bool> abandon_{false};
  std::thread helper_;
};

}  // namespace s3up::mock
