// fuzz/http_request_fuzz.cpp: libFuzzer target for the mock server's request-head parser (read_request_head)
// over the server's own BufferedReader and Connection. Input: byte 0 holds the flags, bytes 1-2 seed the
// split points, the rest is what a client sends. The bytes arrive through a SOCK_SEQPACKET socket pair in
// up to 10 records, so every recv() returns exactly one piece: the parser sees arbitrary, reproducible
// split points. Flag bit 0 inserts a filler header after the first line, sized from byte 3 to land around a
// head limit: max_header_block, or with flag bit 1 max_header_fields. Heads are read in a loop, as the server
// reads pipelined requests.
#include <sys/socket.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include "mock_server/connection.h"
#include "mock_server/http_request.h"

namespace {

using s3up::mock::BufferedReader;
using s3up::mock::Connection;
using s3up::mock::HeadStatus;
using s3up::mock::HttpRequest;
using s3up::mock::UniqueFd;

// The server's connection buffer is 256 KiB (server.cpp); any capacity above max_header_block parses heads
// alike, and this one stays in ASan's primary allocator (at most 128 KiB), which keeps the target fast. It
// also holds everything one input sends (at most 32 KB plus the filler), so a record always fits the free
// space and no SOCK_SEQPACKET record is ever cut short.
constexpr std::size_t reader_capacity = 120 * 1024;
constexpr std::size_t max_input = 32 * 1024;
// A connected SOCK_SEQPACKET pair queues only net.unix.max_dgram_qlen (10) records before a send blocks.
constexpr int max_pieces = 10;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "http request parser: %s\n", what);
  std::abort();
}

bool has_line_break(std::string_view text) {
  return text.find('\r') != std::string_view::npos || text.find('\n') != std::string_view::npos;
}

// What the parser promises about a head it accepted.
void check_request(const HttpRequest& request) {
  if (request.method.empty() || request.target.empty() || request.target.front() != '/')
    fail("accepted a request line without method or origin-form target");
  if (request.version != "HTTP/1.1" && request.version != "HTTP/1.0") fail("accepted an unknown version");
  std::string rebuilt = request.raw_path;
  if (request.target.find('?') != std::string::npos) rebuilt += "?" + request.raw_query;
  if (rebuilt != request.target) fail("raw_path and raw_query do not make up the target");
  for (const auto& header : request.headers) {
    if (header.name.empty() || header.name.find(':') != std::string::npos || has_line_break(header.name))
      fail("accepted a bad header name");
    if (has_line_break(header.value)) fail("a header value holds a line break");
    if (request.find(header.name) == nullptr || request.count(header.name) == 0)
      fail("lookup misses a header");
  }
  // The lookups the server makes on every request.
  (void)request.keep_alive();
  (void)request.expects_continue();
  if (auto encoding = request.value("content-encoding"))
    (void)s3up::mock::has_list_token(*encoding, "aws-chunked");
  (void)request.value("x-amz-content-sha256");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4 || size > max_input) return 0;
  const bool filler = (data[0] & 1) != 0;
  std::uint32_t state = (data[1] | (std::uint32_t{data[2]} << 8)) * 2654435761u + 1;
  std::string sent(reinterpret_cast<const char*>(data + 4), size - 4);
  if (filler) {
    // After the first line, a header that brings the head or its fields to about a limit, give or take.
    std::size_t at = sent.find("\r\n");
    at = at == std::string::npos ? sent.size() : at + 2;
    const std::size_t limit =
        (data[0] & 2) != 0 ? s3up::mock::max_header_fields : s3up::mock::max_header_block;
    const std::size_t length = limit - 160 + data[3];
    sent.insert(at, "x-filler: " + std::string(length, 'f') + "\r\n");
  }

  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds) != 0) fail("socketpair");
  UniqueFd client(fds[0]);
  UniqueFd server(fds[1]);
  {
    std::size_t at = 0;
    for (int piece = 0; piece < max_pieces && at < sent.size(); ++piece) {
      state = state * 1103515245u + 12345u;
      // The last record takes the rest; the others a length from 1 byte to a few KiB.
      std::size_t n = sent.size() - at;
      if (piece < max_pieces - 1) n = std::min<std::size_t>(n, 1 + (state >> 8) % (state & 1 ? 16 : 4096));
      // A machine that queues fewer records than Linux's default skips the input rather than block.
      if (::send(client.get(), sent.data() + at, n, MSG_DONTWAIT | MSG_NOSIGNAL) != static_cast<ssize_t>(n))
        return 0;
      at += n;
    }
    ::shutdown(client.get(), SHUT_WR);  // then the reader sees the end of the stream
  }

  Connection connection(std::move(server), nullptr);
  BufferedReader reader(connection, reader_capacity);
  for (int requests = 0; requests < 1000; ++requests) {
    HttpRequest request;
    const HeadStatus status = read_request_head(reader, request);
    if (status != HeadStatus::ok) break;
    check_request(request);
  }
  return 0;
}
