// object_memory_test.cpp: the memory behind stored objects: PagePool recycling (a kept mapping comes back
// with its pages still in place, within the size rule and the byte budget) and the ETag MD5 computed on its
// helper thread.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <span>
#include <string>

#include "mock_server/etag_md5.h"
#include "mock_server/page_memory.h"
#include "s3_request_builder.h"

using s3up::mock::EtagMd5;
using s3up::mock::PageMemory;
using s3up::mock::PagePool;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

PageMemory marked(PageMemory pages, char mark) {
  std::memset(pages.data(), mark, pages.size());
  return pages;
}

bool all(const PageMemory& pages, char mark) {
  const char* bytes = reinterpret_cast<const char*>(pages.data());
  for (std::size_t i = 0; i < pages.size(); i += 4096)
    if (bytes[i] != mark) return false;
  return true;
}

// Threads of this process, from /proc/self/status.
int thread_count() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("Threads:")) return std::stoi(line.substr(8));
  return -1;
}

}  // namespace

TEST_CASE("PagePool hands a kept mapping back as it was") {
  PagePool pool(64 * mib);
  PageMemory first = marked(PageMemory(4 * mib), 'a');
  std::byte* address = first.data();
  pool.give(std::move(first));

  PageMemory again = pool.take(3 * mib);  // fits, and is no more than twice what is asked
  CHECK(again.data() == address);
  CHECK(again.size() == 4 * mib);
  CHECK(all(again, 'a'));  // the same pages: a fresh anonymous mapping would read as zeros

  pool.give(std::move(again));
  PageMemory small = pool.take(1 * mib);  // the kept 4 MiB is too large to pin for 1 MiB
  CHECK(small.data() != address);
  CHECK(small.size() == 1 * mib);
  CHECK(all(small, '\0'));
}

TEST_CASE("PagePool keeps no more than its budget, dropping the oldest first") {
  PagePool pool(8 * mib);
  pool.give(marked(PageMemory(4 * mib), 'a'));
  pool.give(marked(PageMemory(4 * mib), 'b'));
  pool.give(marked(PageMemory(4 * mib), 'c'));   // 12 MiB: 'a' goes
  pool.give(marked(PageMemory(16 * mib), 'd'));  // over the whole budget: not kept at all

  PageMemory first = pool.take(4 * mib);
  PageMemory second = pool.take(4 * mib);
  PageMemory third = pool.take(4 * mib);
  CHECK(all(first, 'b'));
  CHECK(all(second, 'c'));
  CHECK(all(third, '\0'));  // a new mapping: neither 'a' nor 'd' survived
  CHECK(all(pool.take(16 * mib), '\0'));
}

TEST_CASE("EtagMd5 on its helper thread gives the MD5 of the whole buffer") {
  // python3: hashlib.md5(bytes((31*i+7) % 251 for i in range(9*2**20+123))).hexdigest()
  const std::string expected = "53ce7204be64504664661f4ac29b7c65";
  const std::string data = s3up::test::pattern_bytes(9 * mib + 123);
  const auto bytes = std::as_bytes(std::span(data.data(), data.size()));
  // Large enough for the helper; fed in uneven pieces, as reads arrive.
  for (std::size_t piece : {std::size_t{1000}, std::size_t{65536 + 7}, 3 * mib, data.size()}) {
    INFO(piece);
    EtagMd5 md5(bytes);
    for (std::size_t at = 0; at < bytes.size(); at += piece)
      md5.update(bytes.subspan(at, std::min(piece, bytes.size() - at)));
    CHECK(md5.finish().hex() == expected);
  }
  // Inline (no fixed buffer): the same digest.
  EtagMd5 inline_md5({});
  inline_md5.update(bytes);
  CHECK(inline_md5.finish().hex() == expected);
}

TEST_CASE("EtagMd5 abandoned mid-object stops its helper thread") {
  const std::string data = s3up::test::pattern_bytes(16 * mib);
  const auto bytes = std::as_bytes(std::span(data.data(), data.size()));
  const int threads = thread_count();
  {
    EtagMd5 md5(bytes);
    CHECK(thread_count() == threads + 1);  // the helper is running
    md5.update(bytes.first(5 * mib));
    // Destroyed without the rest of the object ever arriving: it must not wait for it.
  }
  CHECK(thread_count() == threads);
}
