// progress_tracker.cpp: progress summed over parts, monotonic across retries, reported serialized.
#include "transfer/progress_tracker.h"

#include <algorithm>
#include <utility>

namespace s3up {

ProgressTracker::ProgressTracker(std::function<void(const UploadProgress&)> callback,
                                 std::optional<std::uint64_t> total)
    : callback_(std::move(callback)), total_(total) {}

void ProgressTracker::part_progress(int number, std::uint64_t bytes) {
  if (!callback_ || number < 1) return;
  std::lock_guard lock(mutex_);
  if (finished_) return;
  const auto index = static_cast<std::size_t>(number - 1);
  // Grows once per new part (10,000 at most), never per progress call.
  if (index >= part_max_.size()) part_max_.resize(std::max<std::size_t>(index + 1, part_max_.size() * 2));
  // A retry starts its count at 0 again: only bytes beyond what the part already had count.
  if (bytes <= part_max_[index]) return;
  sum_ += bytes - part_max_[index];
  part_max_[index] = bytes;
  if (sum_ - reported_ >= report_step) report_locked();
}

void ProgressTracker::finish(std::uint64_t total) {
  if (!callback_) return;
  std::lock_guard lock(mutex_);
  if (finished_) return;
  finished_ = true;
  sum_ = std::max(sum_, total);
  report_locked();
}

void ProgressTracker::report_locked() {
  reported_ = sum_;
  callback_(UploadProgress{.bytes_sent = sum_, .total_bytes = total_});
}

}  // namespace s3up
