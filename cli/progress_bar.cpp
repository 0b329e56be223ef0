// cli/progress_bar.cpp: formatting and redrawing the progress line. Everything is formatted into stack
// buffers: the callback runs on the upload's threads, between parts, and should cost next to nothing.
#include "progress_bar.h"

#include <unistd.h>

#include "arguments.h"  // format_size_to

namespace s3up::cli {
namespace {

constexpr auto redraw_interval = std::chrono::milliseconds(100);

// "0:07", "12:34", "1:02:03".
void format_duration(char* out, std::size_t size, double seconds) {
  const auto total = static_cast<unsigned long long>(seconds + 0.5);
  if (total >= 3600) {
    std::snprintf(out, size, "%llu:%02llu:%02llu", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(out, size, "%llu:%02llu", total / 60, total % 60);
  }
}

}  // namespace

bool progress_wanted(bool quiet) {
  return !quiet && isatty(STDERR_FILENO) == 1;
}

ProgressBar::ProgressBar(std::FILE* out) : out_(out), start_(std::chrono::steady_clock::now()) {}

void ProgressBar::update(std::uint64_t bytes_sent, std::optional<std::uint64_t> total_bytes) {
  const auto now = std::chrono::steady_clock::now();
  const bool complete = total_bytes && bytes_sent >= *total_bytes;
  if (drawn_ && !complete && now - last_draw_ < redraw_interval) return;
  last_draw_ = now;
  draw(bytes_sent, total_bytes);
}

void ProgressBar::draw(std::uint64_t bytes_sent, std::optional<std::uint64_t> total_bytes) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // The average since the start: steadier than an instant rate, and what the ETA should extrapolate.
  const double rate = elapsed > 0 ? static_cast<double>(bytes_sent) / elapsed : 0;

  char sent[32], total[32], speed[32], eta[32] = "";
  format_size_to(sent, sizeof sent, bytes_sent);
  format_size_to(speed, sizeof speed, static_cast<std::uint64_t>(rate));
  char line[256];
  if (total_bytes) {
    format_size_to(total, sizeof total, *total_bytes);
    const double fraction =
        *total_bytes == 0 ? 1.0 : static_cast<double>(bytes_sent) / static_cast<double>(*total_bytes);
    if (rate > 0 && bytes_sent < *total_bytes) {
      char left[24];
      format_duration(left, sizeof left, static_cast<double>(*total_bytes - bytes_sent) / rate);
      std::snprintf(eta, sizeof eta, "  ETA %s", left);
    }
    // A 20-cell bar: '=' for what is done, so the line reads at a glance.
    char bar[21];
    const int filled = static_cast<int>(fraction * 20 + 1e-9);
    for (int i = 0; i < 20; ++i) bar[i] = i < filled ? '=' : ' ';
    bar[20] = '\0';
    std::snprintf(line, sizeof line, "[%s] %3.0f%%  %s / %s  %s/s%s", bar, fraction * 100, sent, total, speed,
                  eta);
  } else {
    std::snprintf(line, sizeof line, "%s  %s/s", sent, speed);
  }
  // "\r" back to the start, "\x1b[K" clears what a longer previous line left.
  std::fprintf(out_, "\r%s\x1b[K", line);
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", out_);
  std::fflush(out_);
}

}  // namespace s3up::cli
