// bench/bench_support.h: small helpers the benchmark programs share: the process's memory figures from
// /proc, medians, a SHA-256 of an output stream through OpenSSL, number and JSON text formatting, and the
// owner of a file descriptor.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3up::bench {

inline constexpr std::size_t kib = 1024;
inline constexpr std::size_t mib = 1024 * 1024;
inline constexpr std::uint64_t gib = 1024ull * 1024 * 1024;

// A field of /proc/self/status in KiB ("VmHWM", "VmRSS"); 0 when absent.
std::uint64_t proc_status_kib(std::string_view field);
// Resets VmHWM to the current RSS (writes 5 to /proc/self/clear_refs, Linux 4.0+); false if refused.
bool reset_peak_rss();

double median(std::vector<double> values);

// Closes its file descriptor (a file or a socket) on destruction; a negative one is held as "none".
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// The first three fields of /proc/loadavg: printed with the figures, since other load skews them.
std::string load_average();

// SHA-256 of a stream fed piece by piece, through OpenSSL directly: a measuring tool independent of s3up.
class StreamHash {
 public:
  StreamHash();
  ~StreamHash();
  StreamHash(const StreamHash&) = delete;
  StreamHash& operator=(const StreamHash&) = delete;

  void reset();
  void update(std::span<const std::byte> data);
  std::string finish_hex();  // lowercase hex, then reset()

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string sha256_hex(std::span<const std::byte> data);
std::string sha256_hex(std::string_view data);

// "16 KiB", "1 MiB", "100 MiB", "4 GiB" for the power-of-two sizes the benchmarks use.
std::string size_text(std::uint64_t bytes);
std::string json_string(std::string_view text);  // quoted and escaped
std::string json_number(double value);           // finite, or null

}  // namespace s3up::bench
