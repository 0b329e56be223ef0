// transfer/progress_tracker.h: one progress figure for an upload sent in parallel parts: the sum over parts
// of the most bytes each has had sent, so that a part's retry (whose own count starts again at 0) never
// takes the total back; reported to the caller serialized and throttled.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "s3up/transfer.h"

namespace s3up {

class ProgressTracker {
 public:
  // Bytes of progress between two reports (the last report, from finish(), is never skipped).
  static constexpr std::uint64_t report_step = 256 * 1024;

  ProgressTracker(std::function<void(const UploadProgress&)> callback, std::optional<std::uint64_t> total);

  // Part `number` (from 1) has had `bytes` sent in its current attempt. Safe from any thread.
  void part_progress(int number, std::uint64_t bytes);
  // The upload is done: reports `total` bytes, once.
  void finish(std::uint64_t total);

  bool enabled() const { return static_cast<bool>(callback_); }

 private:
  void report_locked();

  std::function<void(const UploadProgress&)> callback_;
  std::optional<std::uint64_t> total_;
  std::mutex mutex_;                     // serializes the reports too
  std::vector<std::uint64_t> part_max_;  // per part (index number - 1): the most bytes any attempt sent
  std::uint64_t sum_ = 0;                // of part_max_
  std::uint64_t reported_ = 0;
  bool finished_ = false;
};

}  // namespace s3up
