// limits_test.cpp: the mock server's bounds against memory exhaustion, over real sockets: header fields and
// the whole head, aws-chunked chunk-size and trailer lines, HTTP chunked framing lines and trailers, small
// bodies. Each is refused with an S3 error, then the connection closes; nothing of it is stored.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using namespace s3up::test;
namespace sigv4 = s3up::sigv4;

namespace {

// S3's limit on the header section, from its own RequestHeaderSectionTooLarge error document
// (<MaxSizeAllowed>8192</MaxSizeAllowed>).
constexpr std::size_t s3_header_limit = 8192;

// Sends head + body on a fresh connection; the response, and whether the server then closed (waited for
// only when the response announced it).
struct Outcome {
  HttpResponse response;
  bool closed = false;
};

Outcome exchange(const Server& server, const std::string& head, const std::string& body) {
  RawHttpConnection connection(server.port());
  connection.send(head + body);  // may stop early: the server refuses before reading everything
  auto response = connection.read_response();
  if (!response) throw std::runtime_error("no response");
  Outcome outcome{*response, false};
  if (response->header("Connection") == "close") outcome.closed = connection.server_closed(10000);
  return outcome;
}

void check_refused(const Outcome& outcome, int status, const std::string& code) {
  CHECK(outcome.response.status == status);
  CHECK(outcome.response.error_code() == code);
  CHECK(outcome.response.header("Connection") == "close");
  CHECK(outcome.closed);
}

// The head of a PutObject of `length` bytes whose header fields (each line with its CRLF, as S3 counts)
// come to exactly `fields_size` bytes, padded with an unsigned x-filler header.
std::string head_with_fields(const Server& server, std::size_t fields_size, std::size_t length) {
  RequestSpec spec;
  spec.path = "/bucket/key";
  std::string plain = build_request(spec, server.port()).head(length);
  std::size_t request_line = plain.find("\r\n") + 2;
  std::size_t fields = plain.size() - request_line - 2;  // without the blank line
  const std::size_t filler_overhead = std::string("x-filler: \r\n").size();
  REQUIRE(fields + filler_overhead < fields_size);
  spec.unsigned_headers = {{"x-filler", std::string(fields_size - fields - filler_overhead, 'f')}};
  std::string head = build_request(spec, server.port()).head(length);
  REQUIRE(head.size() - head.find("\r\n") - 2 - 2 == fields_size);
  return head;
}

}  // namespace

TEST_CASE("header fields: 8192 bytes are accepted, one more is RequestHeaderSectionTooLarge") {
  Server server;
  auto at_limit = exchange(server, head_with_fields(server, s3_header_limit, 5), "hello");
  CHECK(at_limit.response.status == 200);
  CHECK(as_string(*server.object_data("bucket", "key")) == "hello");

  auto over = exchange(server, head_with_fields(server, s3_header_limit + 1, 5), "world");
  check_refused(over, 400, "RequestHeaderSectionTooLarge");
  CHECK(over.response.element("MaxSizeAllowed") == "8192");
  CHECK(as_string(*server.object_data("bucket", "key")) == "hello");
}

TEST_CASE("a head that never ends is refused once it passes 16 KiB, not buffered") {
  Server server;
  SECTION("header lines without the blank line") {
    std::string head = "PUT /bucket/key HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    while (head.size() < 64 * 1024) head += "x-more: " + std::string(100, 'm') + "\r\n";
    check_refused(exchange(server, head, ""), 400, "RequestHeaderSectionTooLarge");
  }
  SECTION("a request line of 20000 bytes") {
    std::string head = "GET /bucket/" + std::string(20000, 'k') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    check_refused(exchange(server, head, ""), 400, "RequestHeaderSectionTooLarge");
  }
  CHECK(server.object_count() == 0);
}

TEST_CASE("aws-chunked: a 1 MiB chunk-size line or trailer line is refused, not buffered") {
  Server server;
  const auto mode = sigv4::streaming_unsigned_payload_trailer;
  SECTION("chunk-size line") {
    // 128 bytes is the longest legal line (reference §2.3: 16 hex digits, ";chunk-signature=", 64 hex).
    std::string body = "1;" + std::string(1 << 20, 'x') + "\r\nA\r\n0\r\n\r\n";
    auto built = build_request(streaming_spec("/bucket/key", mode, 1, ""), server.port());
    check_refused(exchange(server, built.head(body.size()), body), 400, "IncompleteBody");
  }
  SECTION("trailer line") {
    std::string body = "0\r\nx-amz-checksum-crc32:" + std::string(1 << 20, 'A') + "\r\n\r\n";
    auto built = build_request(streaming_spec("/bucket/key", mode, 0, "x-amz-checksum-crc32"), server.port());
    check_refused(exchange(server, built.head(body.size()), body), 400, "MalformedTrailerError");
  }
  CHECK(server.object_count() == 0);
}

TEST_CASE("HTTP chunked framing: a 1 MiB chunk-size line or endless trailers are refused") {
  Server server;
  RequestSpec spec;
  spec.path = "/bucket/key";
  spec.chunked_transfer = true;
  const std::string head = build_request(spec, server.port()).head(0);
  SECTION("chunk-size line") {
    std::string body = "5;" + std::string(1 << 20, 'e') + "\r\nhello\r\n0\r\n\r\n";
    check_refused(exchange(server, head, body), 400, "IncompleteBody");
  }
  SECTION("trailer fields") {
    std::string body = "5\r\nhello\r\n0\r\n";
    for (int i = 0; i < 10000; ++i) body += "x-trailer: t\r\n";
    body += "\r\n";
    check_refused(exchange(server, head, body), 400, "IncompleteBody");
  }
  CHECK(server.object_count() == 0);
}

TEST_CASE("a 4 MiB body to an operation other than PutObject is MaxMessageLengthExceeded past 1 MiB") {
  Server server;
  RequestSpec spec;
  spec.path = "/bucket";  // CreateBucket, whose body is a small XML document
  // sha256 of the body, computed with Python hashlib: without the limit the request would succeed.
  spec.payload_hash = "b7a6434d497ad38396f731f01623496e52cefa88063bcb80cb802c2827c31f8a";
  const std::string body(4 << 20, ' ');
  check_refused(exchange(server, build_request(spec, server.port()).head(body.size()), body), 400,
                "MaxMessageLengthExceeded");
  CHECK(server.stats().body_bytes < body.size());  // refused before the end, not after reading it all
}
