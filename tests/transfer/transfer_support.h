// transfer_support.h: what the upload() tests share: a mock server taking small parts, the client settings
// for it, and body sources of every kind over test data (zero-copy ranges for memory and files, buffers for
// streams of known and unknown length and for callbacks).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "s3up/transfer.h"
#include "tests/client/integration_support.h"

namespace s3up::test {

// The smallest part here, for the server's EntityTooSmall and the client's floor alike: S3's 5 MiB shrunk
// so that many-part uploads stay cheap.
inline constexpr std::uint64_t small_part = 16 * 1024;

inline mock::ServerOptions small_part_options() {
  mock::ServerOptions options;
  options.min_part_size = small_part;
  return options;
}

// The server's credentials, a 1 ms backoff (what is retried matters here, not how long the wait is).
inline ClientConfig transfer_config(const mock::Server& server) {
  ClientConfig config = config_for(server);
  config.retry = {.max_attempts = 3,
                  .base_delay = std::chrono::milliseconds(1),
                  .max_backoff = std::chrono::milliseconds(5)};
  return config;
}

inline UploadOptions small_parts(std::uint64_t threshold, std::uint64_t part_size = small_part,
                                 int concurrency = 3) {
  UploadOptions options;
  options.multipart_threshold = threshold;
  options.part_size = part_size;
  options.part_size_floor = small_part;
  options.concurrency = concurrency;
  return options;
}

// A stream buffer that cannot seek, like a pipe: std::streambuf's seekoff/seekpos fail by default.
class PipeBuffer : public std::streambuf {
 public:
  explicit PipeBuffer(std::string data) : data_(std::move(data)) {
    setg(data_.data(), data_.data(), data_.data() + data_.size());
  }

 private:
  std::string data_;
};

enum class BodyKind { memory, file, seekable_stream, pipe, callback };

inline const char* name(BodyKind kind) {
  switch (kind) {
    case BodyKind::memory:
      return "memory (ranges)";
    case BodyKind::file:
      return "file (ranges)";
    case BodyKind::seekable_stream:
      return "seekable stream (known size, buffers)";
    case BodyKind::pipe:
      return "pipe stream (unknown length)";
    case BodyKind::callback:
      return "callback without a size (unknown length)";
  }
  return "?";
}

inline const std::vector<BodyKind>& all_body_kinds() {
  static const std::vector<BodyKind> kinds = {BodyKind::memory, BodyKind::file, BodyKind::seekable_stream,
                                              BodyKind::pipe, BodyKind::callback};
  return kinds;
}

// A body of the given kind over data, with whatever it needs kept alive.
class TestBody {
 public:
  TestBody(BodyKind kind, const std::vector<std::byte>& data) : data_(data) {
    switch (kind) {
      case BodyKind::memory:
        source_ = std::make_unique<MemorySource>(std::span<const std::byte>(data_));
        break;
      case BodyKind::file:
        file_ = std::make_unique<TempFile>(as_string(data_));
        source_ = std::make_unique<FileSource>(file_->path());
        break;
      case BodyKind::seekable_stream:
        stream_ = std::make_unique<std::istringstream>(as_string(data_));
        source_ = std::make_unique<StreamSource>(*stream_);
        break;
      case BodyKind::pipe:
        pipe_ = std::make_unique<PipeBuffer>(as_string(data_));
        stream_ = std::make_unique<std::istream>(pipe_.get());
        source_ = std::make_unique<StreamSource>(*stream_);
        break;
      case BodyKind::callback:
        // Small, uneven reads: a part boundary never falls on a read boundary by luck.
        source_ = std::make_unique<CallbackSource>([this](std::span<std::byte> dest) -> std::ptrdiff_t {
          std::size_t n = std::min({dest.size(), data_.size() - position_, std::size_t{7001}});
          std::copy_n(data_.begin() + static_cast<std::ptrdiff_t>(position_), n, dest.begin());
          position_ += n;
          return static_cast<std::ptrdiff_t>(n);
        });
        break;
    }
  }
  TestBody(const TestBody&) = delete;
  TestBody& operator=(const TestBody&) = delete;

  BodySource& source() { return *source_; }

 private:
  const std::vector<std::byte>& data_;
  std::size_t position_ = 0;
  std::unique_ptr<TempFile> file_;
  std::unique_ptr<PipeBuffer> pipe_;
  std::unique_ptr<std::istream> stream_;
  std::unique_ptr<BodySource> source_;
};

inline std::uint64_t parts_for(std::uint64_t size, std::uint64_t part_size) {
  return (size + part_size - 1) / part_size;
}

}  // namespace s3up::test
