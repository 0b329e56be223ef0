// integration_support.h: helpers for the client's integration tests against s3up::mock::Server: test data,
// temporary files, the four body source types, and a client configured for a given server.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "s3up/client.h"
#include "s3up/mock_server.h"

namespace s3up::test {

// Deterministic bytes that differ per seed (a multiplicative hash of the index): no pattern a chunk boundary
// bug could hide behind.
inline std::vector<std::byte> make_data(std::size_t size, std::uint32_t seed = 1) {
  std::vector<std::byte> data(size);
  for (std::size_t i = 0; i < size; ++i) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 2654435761u + seed * 40503u;
    data[i] = static_cast<std::byte>((x >> 13) ^ (x >> 24));
  }
  return data;
}

inline std::string as_string(const std::vector<std::byte>& data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

// A file under $TMPDIR (or /tmp) removed when the object dies.
class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/s3up-client-test-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    close(fd);
    path_ = name.data();
    std::ofstream out(path_, std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) throw std::runtime_error("cannot write " + path_);
  }
  ~TempFile() { unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A CallbackSource over data that reads from position (and advances it), rewinds to 0 when rewindable,
// declares `declared` bytes (default: all of data) and yields at most the first `limit` bytes of data, so
// that it can break its promise either way.
inline CallbackSource callback_source(const std::vector<std::byte>& data, std::size_t& position,
                                      bool rewindable = true,
                                      std::optional<std::uint64_t> declared = std::nullopt,
                                      std::size_t limit = SIZE_MAX) {
  const std::size_t end = std::min(limit, data.size());
  CallbackSource::RewindFunction rewind;
  if (rewindable) {
    rewind = [&position] {
      position = 0;
      return true;
    };
  }
  return CallbackSource(
      [&data, &position, end](std::span<std::byte> dest) -> std::ptrdiff_t {
        std::size_t n = std::min(dest.size(), end - position);
        std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(position), n, dest.begin());
        position += n;
        return static_cast<std::ptrdiff_t>(n);
      },
      declared.value_or(data.size()), std::move(rewind));
}

enum class SourceKind { memory, file, stream, callback };

inline const char* name(SourceKind kind) {
  switch (kind) {
    case SourceKind::memory:
      return "memory";
    case SourceKind::file:
      return "file";
    case SourceKind::stream:
      return "stream";
    case SourceKind::callback:
      return "callback";
  }
  return "?";
}

// One body source of the given kind over data, with whatever it needs kept alive (file, stream, position).
class SourceHolder {
 public:
  SourceHolder(SourceKind kind, const std::vector<std::byte>& data) : data_(data) {
    switch (kind) {
      case SourceKind::memory:
        source_ = std::make_unique<MemorySource>(std::span<const std::byte>(data_));
        break;
      case SourceKind::file:
        file_ = std::make_unique<TempFile>(as_string(data_));
        source_ = std::make_unique<FileSource>(file_->path());
        break;
      case SourceKind::stream:
        stream_ = std::make_unique<std::istringstream>(as_string(data_));
        source_ = std::make_unique<StreamSource>(*stream_);
        break;
      case SourceKind::callback:
        source_ = std::make_unique<CallbackSource>(callback_source(data_, position_));
        break;
    }
  }
  SourceHolder(const SourceHolder&) = delete;
  SourceHolder& operator=(const SourceHolder&) = delete;

  BodySource& source() { return *source_; }

 private:
  const std::vector<std::byte>& data_;
  std::size_t position_ = 0;
  std::unique_ptr<TempFile> file_;
  std::unique_ptr<std::istringstream> stream_;
  std::unique_ptr<BodySource> source_;
};

// A client for server with its credentials and region; explicit values everywhere the environment could
// otherwise interfere (these machines export AWS_CA_BUNDLE and maybe more).
inline ClientConfig config_for(const mock::Server& server, const std::string& ca_bundle = "") {
  ClientConfig config;
  config.endpoint_url = server.url();
  config.region = server.options().region;
  config.credentials = sigv4::Credentials{server.options().access_key, server.options().secret_key, ""};
  config.checksum_calculation = ChecksumCalculation::when_supported;
  config.ca_bundle = ca_bundle;
  config.connect_timeout = std::chrono::milliseconds(5000);
  config.request_timeout = std::chrono::milliseconds(60000);
  return config;
}

// A client for a server at url, with explicit values everywhere the environment could otherwise interfere:
// a scripted responder (below), or `s3up serve` in a child process, which checks the credentials.
inline ClientConfig config_for_scripted(const std::string& url, sigv4::Credentials credentials) {
  ClientConfig config;
  config.endpoint_url = url;
  config.region = "us-east-1";
  config.credentials = std::move(credentials);
  config.checksum_calculation = ChecksumCalculation::when_supported;
  config.ca_bundle = "";
  config.connect_timeout = std::chrono::milliseconds(5000);
  config.request_timeout = std::chrono::milliseconds(60000);
  return config;
}

// A client for a scripted responder (scripted_http_server.h) at url: test credentials it never checks.
inline ClientConfig config_for_scripted(const std::string& url) {
  return config_for_scripted(url, sigv4::Credentials{"AKIDSCRIPTED", "scripted-secret", ""});
}

// What get_object streams, collected.
inline Result<GetObjectResult> get_bytes(Client& client, const std::string& bucket, const std::string& key,
                                         std::vector<std::byte>& out) {
  out.clear();
  return client.get_object(bucket, key, [&out](std::span<const std::byte> piece) {
    out.insert(out.end(), piece.begin(), piece.end());
  });
}

// The ETag S3 gives a single-part upload: the quoted hex MD5 of the bytes.
inline std::string expected_etag(const std::vector<std::byte>& data) {
  return "\"" + compute_checksum(ChecksumAlgorithm::md5, data).hex() + "\"";
}

}  // namespace s3up::test
