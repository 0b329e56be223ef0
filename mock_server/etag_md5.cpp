// etag_md5.cpp: the ETag MD5, inline or on a helper thread trailing the writer through a fixed buffer.
#include "etag_md5.h"

#include <algorithm>
#include <system_error>

namespace s3up::mock {

namespace {

// Below this a thread start costs more than the overlap saves.
constexpr std::uint64_t min_helper_size = 8 << 20;
// The helper is woken once per this many bytes (and at the end), not once per read or chunk.
constexpr std::uint64_t publish_step = 1 << 20;
// Between blocks the helper checks whether the upload was abandoned.
constexpr std::uint64_t helper_block = 4 << 20;
constexpr std::uint64_t done_bit = std::uint64_t{1} << 63;

}  // namespace

EtagMd5::EtagMd5(std::span<const std::byte> fixed_buffer) {
  if (fixed_buffer.size() < min_helper_size) return;
  fixed_buffer_ = fixed_buffer.data();
  try {
    helper_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    fixed_buffer_ = nullptr;  // no thread to be had: hash inline, as for a small object
  }
}

EtagMd5::~EtagMd5() {
  if (!helper_.joinable()) return;
  abandon_.store(true, std::memory_order_relaxed);
  stop_helper(published_);
}

void EtagMd5::update(std::span<const std::byte> data) {
  written_ += data.size();
  if (!fixed_buffer_) {
    md5_.update(data);
    return;
  }
  if (written_ - published_ >= publish_step) publish(written_);
}

Digest EtagMd5::finish() {
  if (fixed_buffer_) {
    stop_helper(written_);
    fixed_buffer_ = nullptr;
  }
  return md5_.finish();
}

void EtagMd5::publish(std::uint64_t progress) {
  published_ = progress;
  // Release: the bytes below `progress` were written by this thread before the helper may read them.
  progress_.store(progress, std::memory_order_release);
  progress_.notify_one();
}

void EtagMd5::stop_helper(std::uint64_t final_progress) {
  publish(final_progress | done_bit);
  helper_.join();
}

void EtagMd5::run() {
  std::uint64_t hashed = 0;
  for (;;) {
    std::uint64_t progress = progress_.load(std::memory_order_acquire);
    std::uint64_t available = progress & ~done_bit;
    if (hashed < available) {
      if (abandon_.load(std::memory_order_relaxed)) return;
      std::uint64_t n = std::min(available - hashed, helper_block);
      md5_.update({fixed_buffer_ + hashed, static_cast<std::size_t>(n)});
      hashed += n;
    } else if (progress & done_bit) {
      return;
    } else {
      progress_.wait(progress, std::memory_order_acquire);
    }
  }
}

}  // namespace s3up::mock
