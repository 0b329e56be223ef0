// source_range_test.cpp: BodySource::range, the zero-copy parts of multipart uploads: a MemorySource range is
// a subspan of the caller's bytes, a FileSource range preads the same descriptor; ranges read independently
// of each other and of their parent, rewind on their own, and refuse to reach past the end.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "body_test_util.h"

using body_test::error_kind;
using s3up::BodyError;

namespace {

std::string read_all(s3up::BodySource& source, std::size_t step = 777) {
  std::string out;
  std::vector<std::byte> buffer(step);
  for (std::size_t n; (n = source.read(buffer)) != 0;)
    out.append(reinterpret_cast<const char*>(buffer.data()), n);
  return out;
}

class TempFile {
 public:
  explicit TempFile(const std::string& data) {
    std::string name = (std::filesystem::temp_directory_path() / "s3up-range-XXXXXX").string();
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

}  // namespace

TEST_CASE("MemorySource::range is a view of the parent's bytes", "[body][range]") {
  const std::string data = body_test::pattern(10000, 7);
  s3up::MemorySource source{std::string_view(data)};

  auto middle = source.range(1234, 5000);
  REQUIRE(middle);
  CHECK(middle->size() == 5000u);
  CHECK(middle->can_rewind());
  CHECK(read_all(*middle) == data.substr(1234, 5000));
  middle->rewind();
  CHECK(read_all(*middle, 4096) == data.substr(1234, 5000));

  // Zero copy: the range reads the caller's storage itself.
  auto head = source.range(0, 3);
  std::vector<std::byte> out(3);
  REQUIRE(head->read(out) == 3);
  CHECK(std::memcmp(out.data(), data.data(), 3) == 0);

  // A range of a range is relative to it.
  auto inner = middle->range(10, 20);
  CHECK(read_all(*inner) == data.substr(1244, 20));

  // The edges: an empty range at the end, the whole, and one byte too far either way.
  CHECK(source.range(10000, 0)->size() == 0u);
  CHECK(read_all(*source.range(0, 10000)) == data);
  CHECK(error_kind([&] { (void)source.range(10000, 1); }) == BodyError::Kind::invalid_argument);
  CHECK(error_kind([&] { (void)source.range(10001, 0); }) == BodyError::Kind::invalid_argument);
  CHECK(error_kind([&] { (void)source.range(1, UINT64_MAX); }) == BodyError::Kind::invalid_argument);

  // The parent's position is its own.
  std::vector<std::byte> first(100);
  REQUIRE(source.read(first) == 100);
  CHECK(read_all(*source.range(50, 10)) == data.substr(50, 10));
  CHECK(read_all(source) == data.substr(100));
}

TEST_CASE("FileSource::range preads the same descriptor, independently of other ranges", "[body][range]") {
  const std::string data = body_test::pattern(300000, 9);
  TempFile file(data);

  s3up::FileSource whole(file.path());
  auto a = whole.range(0, 100000);
  auto b = whole.range(100000, 100000);
  auto c = whole.range(200000, 100000);
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(c);
  CHECK(c->size() == 100000u);

  // Interleaved reads: every range keeps its own position over the shared descriptor.
  std::string got_a, got_b, got_c;
  std::vector<std::byte> buffer(4096);
  for (bool more = true; more;) {
    more = false;
    for (auto [range, got] : {std::pair{a.get(), &got_a}, {b.get(), &got_b}, {c.get(), &got_c}}) {
      std::size_t n = range->read(buffer);
      got->append(reinterpret_cast<const char*>(buffer.data()), n);
      more = more || n != 0;
    }
  }
  CHECK(got_a == data.substr(0, 100000));
  CHECK(got_b == data.substr(100000, 100000));
  CHECK(got_c == data.substr(200000, 100000));
  b->rewind();
  CHECK(read_all(*b) == data.substr(100000, 100000));

  // Offsets are relative to a FileSource that is itself a range of the file.
  s3up::FileSource window(file.path(), 1000, 50000);
  CHECK(read_all(*window.range(10, 100)) == data.substr(1010, 100));
  CHECK(error_kind([&] { (void)window.range(49990, 11); }) == BodyError::Kind::invalid_argument);
  CHECK(read_all(*window.range(49990, 10)) == data.substr(50990, 10));
}

TEST_CASE("a FileSource range borrows its descriptor, and sources without ranges say so", "[body][range]") {
  const std::string data = body_test::pattern(5000, 11);
  TempFile file(data);
  int fd = ::open(file.path().c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  {
    s3up::FileSource source(fd, 0);
    {
      auto part = source.range(100, 200);
      CHECK(read_all(*part) == data.substr(100, 200));
    }
    // The part closed nothing: the parent still reads.
    CHECK(read_all(source) == data);
  }
  // Neither did the parent, which was given the descriptor.
  char byte = 0;
  CHECK(::pread(fd, &byte, 1, 0) == 1);
  ::close(fd);

  std::istringstream stream(data);
  s3up::StreamSource from_stream(stream);
  CHECK(from_stream.range(0, 10) == nullptr);
  s3up::CallbackSource callback([](std::span<std::byte>) -> std::ptrdiff_t { return 0; }, 0);
  CHECK(callback.range(0, 0) == nullptr);
}
