// cli/progress_bar.h: the one-line progress display of `s3up cp` on a terminal: bytes sent, percentage when
// the size is known, average rate and time left, redrawn in place at most ten times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace s3up::cli {

// Whether to show progress: only when stderr is a terminal (never in a pipe, a log file or a test) and the
// user did not ask for quiet.
bool progress_wanted(bool quiet);

class ProgressBar {
 public:
  explicit ProgressBar(std::FILE* out);

  // The upload's progress. Called from the uploading threads, serialized by upload(); draws only when
  // 100 ms have passed since the last drawing (the first and the final state are always drawn).
  void update(std::uint64_t bytes_sent, std::optional<std::uint64_t> total_bytes);
  // Erases the line, so the result printed next starts on a clean line.
  void finish();

 private:
  void draw(std::uint64_t bytes_sent, std::optional<std::uint64_t> total_bytes);

  std::FILE* out_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_{};
  bool drawn_ = false;
};

}  // namespace s3up::cli
