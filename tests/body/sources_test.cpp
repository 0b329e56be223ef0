// sources_test.cpp: MemorySource, FileSource (on a temporary file), StreamSource (seekable and not) and
// CallbackSource: sizes, ranges, rewinds and typed errors.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "body_test_util.h"

using body_test::error_kind;
using s3up::BodyError;

namespace {

std::string read_all(s3up::BodySource& source, std::size_t step = 1000) {
  std::string out;
  std::vector<std::byte> buffer(step);
  for (std::size_t n; (n = source.read(buffer)) != 0;)
    out.append(reinterpret_cast<const char*>(buffer.data()), n);
  return out;
}

// A temporary file holding data, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& data) {
    std::string name = (std::filesystem::temp_directory_path() / "s3up-body-XXXXXX").string();
    int fd = ::mkstemp(name.data());
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    ::close(fd);
    path_ = name;
    std::ofstream(path_, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A stream buffer that cannot seek (like a pipe): std::streambuf's seekoff/seekpos fail by default.
class PipeBuffer : public std::streambuf {
 public:
  explicit PipeBuffer(std::string data) : data_(std::move(data)) {
    setg(data_.data(), data_.data(), data_.data() + data_.size());
  }

 private:
  std::string data_;
};

// A stream buffer whose device fails after its first bytes.
class FailingBuffer : public std::streambuf {
 public:
  FailingBuffer() { setg(data_, data_, data_ + sizeof data_); }

 protected:
  int_type underflow() override { throw std::runtime_error("device error"); }

 private:
  char data_[4] = {'a', 'b', 'c', 'd'};
};

}  // namespace

TEST_CASE("MemorySource reads, sizes and rewinds") {
  s3up::MemorySource source(std::string_view("hello world"));
  CHECK(source.size() == 11u);
  CHECK(source.can_rewind());
  CHECK(read_all(source, 3) == "hello world");
  std::array<std::byte, 4> buffer;
  CHECK(source.read(buffer) == 0);
  source.rewind();
  CHECK(read_all(source) == "hello world");
}

TEST_CASE("FileSource reads a whole file and byte ranges with pread") {
  const std::string data = body_test::pattern(100000, 8);
  TempFile file(data);

  s3up::FileSource whole(file.path());
  CHECK(whole.size() == 100000u);
  CHECK(read_all(whole, 4096) == data);
  whole.rewind();
  CHECK(read_all(whole, 65536) == data);

  s3up::FileSource tail(file.path(), 99000);
  CHECK(tail.size() == 1000u);
  CHECK(read_all(tail) == data.substr(99000));

  s3up::FileSource middle(file.path(), 12345, 50000);
  CHECK(middle.size() == 50000u);
  CHECK(read_all(middle, 7777) == data.substr(12345, 50000));

  s3up::FileSource at_end(file.path(), 100000);
  CHECK(at_end.size() == 0u);
  CHECK(read_all(at_end).empty());

  // Several sources share one descriptor (multipart parts): pread keeps them independent.
  int fd = ::open(file.path().c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  {
    s3up::FileSource part1(fd, 0, 60000);
    s3up::FileSource part2(fd, 60000);
    std::array<std::byte, 10> buffer;
    REQUIRE(part2.read(buffer) == 10);
    CHECK(read_all(part1) == data.substr(0, 60000));
    CHECK(read_all(part2) == data.substr(60010));
    s3up::FileSource moved(std::move(part1));
    moved.rewind();
    CHECK(read_all(moved) == data.substr(0, 60000));
  }
  // The fd constructor does not take ownership: fd is still open.
  CHECK(::fcntl(fd, F_GETFD) != -1);
  ::close(fd);
}

TEST_CASE("FileSource errors: missing file, range beyond the end, directories") {
  const std::string data = body_test::pattern(1000, 8);
  TempFile file(data);
  std::string message;
  CHECK(error_kind([&] { s3up::FileSource source(file.path(), 1001); }, &message) ==
        BodyError::Kind::invalid_argument);
  CHECK(error_kind([&] { s3up::FileSource source(file.path(), 500, 501); }) ==
        BodyError::Kind::invalid_argument);
  CHECK_NOTHROW(s3up::FileSource(file.path(), 500, 500));

  const std::filesystem::path missing = file.path().string() + "-missing";
  CHECK(error_kind([&] { s3up::FileSource source(missing); }, &message) == BodyError::Kind::read_failed);
  CHECK(message.find(missing.string()) != std::string::npos);
  CHECK(message.find("No such file or directory") != std::string::npos);

  CHECK(error_kind([&] { s3up::FileSource source(std::filesystem::temp_directory_path()); }) ==
        BodyError::Kind::invalid_argument);
}

TEST_CASE("FileSource: a file that shrinks makes the encoder fail with ended_early") {
  const std::string data = body_test::pattern(100000, 8);
  TempFile file(data);
  s3up::FileSource source(file.path());
  s3up::TrailerEncoder encoder(source, s3up::make_checksum(s3up::ChecksumAlgorithm::crc32));
  std::filesystem::resize_file(file.path(), 70000);
  std::string message;
  CHECK(error_kind([&] { body_test::drain(encoder, 16384); }, &message) == BodyError::Kind::ended_early);
  CHECK(message == "body ended after 70000 of 100000 bytes");
}

TEST_CASE("StreamSource on a seekable stream measures the rest and rewinds to where it started") {
  std::istringstream stream("skip:" + std::string("payload bytes"));
  char skipped[5];
  stream.read(skipped, 5);
  s3up::StreamSource source(stream);
  CHECK(source.can_rewind());
  CHECK(source.size() == 13u);
  CHECK(read_all(source, 4) == "payload bytes");
  source.rewind();
  CHECK(read_all(source) == "payload bytes");

  std::istringstream given("0123456789");
  s3up::StreamSource with_size(given, 4);
  CHECK(with_size.size() == 4u);
  CHECK(with_size.can_rewind());
}

TEST_CASE("StreamSource on a non-seekable stream is one-pass") {
  PipeBuffer pipe("streamed data");
  std::istream stream(&pipe);
  s3up::StreamSource source(stream);
  CHECK_FALSE(source.can_rewind());
  CHECK_FALSE(source.size().has_value());
  CHECK(read_all(source, 5) == "streamed data");
  CHECK(error_kind([&] { source.rewind(); }) == BodyError::Kind::not_rewindable);

  PipeBuffer sized_pipe("abc");
  std::istream sized_stream(&sized_pipe);
  s3up::StreamSource sized(sized_stream, 3);
  CHECK(sized.size() == 3u);
  CHECK_FALSE(sized.can_rewind());
  s3up::RawBodyEncoder encoder(sized);
  CHECK(body_test::drain(encoder, 2) == "abc");
}

TEST_CASE("StreamSource reports a failing stream as read_failed") {
  FailingBuffer failing;
  std::istream stream(&failing);
  s3up::StreamSource source(stream, 100);
  std::array<std::byte, 64> buffer;
  CHECK(error_kind([&] { source.read(buffer); }) == BodyError::Kind::read_failed);
}

TEST_CASE("CallbackSource: reads, errors and rewind") {
  const std::string data = "callback bytes";
  std::size_t position = 0;
  auto read = [&](std::span<std::byte> dest) -> std::ptrdiff_t {
    std::size_t n = std::min<std::size_t>({dest.size(), data.size() - position, 3});
    std::copy_n(reinterpret_cast<const std::byte*>(data.data()) + position, n, dest.begin());
    position += n;
    return static_cast<std::ptrdiff_t>(n);
  };

  s3up::CallbackSource no_rewind(read, data.size());
  CHECK(no_rewind.size() == data.size());
  CHECK_FALSE(no_rewind.can_rewind());
  CHECK(read_all(no_rewind) == data);
  CHECK(error_kind([&] { no_rewind.rewind(); }) == BodyError::Kind::not_rewindable);

  position = 0;
  s3up::CallbackSource rewindable(read, std::nullopt, [&] {
    position = 0;
    return true;
  });
  CHECK_FALSE(rewindable.size().has_value());
  CHECK(rewindable.can_rewind());
  CHECK(read_all(rewindable) == data);
  rewindable.rewind();
  CHECK(read_all(rewindable) == data);

  s3up::CallbackSource refusing(read, std::nullopt, [] { return false; });
  CHECK(error_kind([&] { refusing.rewind(); }) == BodyError::Kind::not_rewindable);

  s3up::CallbackSource failing([](std::span<std::byte>) -> std::ptrdiff_t { return -1; });
  std::array<std::byte, 8> buffer;
  CHECK(error_kind([&] { failing.read(buffer); }) == BodyError::Kind::read_failed);

  s3up::CallbackSource overrunning(
      [](std::span<std::byte> dest) { return static_cast<std::ptrdiff_t>(dest.size() + 1); });
  CHECK(error_kind([&] { overrunning.read(buffer); }) == BodyError::Kind::read_failed);
}
