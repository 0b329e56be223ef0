// response_header_test.cpp: answers whose header block holds a field line that begins with "HTTP/" (found by
// fuzz/http_response_fuzz.cpp), and status lines that curl reads its own way. Only the first line of a header
// block is a status line, and the status that routes the body is curl's: otherwise get_object sent the body
// to the error buffer instead of the sink and still reported success, and a field like that dropped the
// checksum header read before it, so a wrong body passed unverified.
// CRC32 values from Python: base64.b64encode(struct.pack('>I', zlib.crc32(b'hello'))) == b'NhCmhg=='.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "integration_support.h"
#include "s3up/client.h"
#include "scripted_http_server.h"

using namespace s3up;
using test::http_reply;
using test::ScriptedHttpServer;

TEST_CASE("odd status lines, or fields that look like one, neither divert the body nor hide the checksum",
          "[client][scripted]") {
  SECTION("the body still reaches the sink, whole") {
    ScriptedHttpServer server({{http_reply("200 OK", "ETag: \"e\"\r\nHTTP/Content-Length: 5\r\n", "hello")}});
    Client client(test::config_for_scripted(server.url()));
    std::vector<std::byte> received;
    auto result = test::get_bytes(client, "bucket", "key", received);
    REQUIRE(result);
    CHECK(result->bytes == 5);
    CHECK(std::string(reinterpret_cast<const char*>(received.data()), received.size()) == "hello");
  }
  SECTION("a status line only curl can read (as HTTP/1.0 200) still sends the body to the sink") {
    ScriptedHttpServer server({{"HTTP/x\r\nContent-Length: 5\r\n\r\nhello"}});
    Client client(test::config_for_scripted(server.url()));
    std::vector<std::byte> received;
    auto result = test::get_bytes(client, "bucket", "key", received);
    REQUIRE(result);
    CHECK(result->bytes == 5);
    CHECK(std::string(reinterpret_cast<const char*>(received.data()), received.size()) == "hello");
  }
  SECTION("a checksum sent before that field is still verified") {
    ScriptedHttpServer server(
        {{http_reply("200 OK", "x-amz-checksum-crc32: AAAAAA==\r\nHTTP/Version: 1.1\r\n", "hello")}});
    Client client(test::config_for_scripted(server.url()));
    std::vector<std::byte> received;
    auto result = test::get_bytes(client, "bucket", "key", received);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::checksum_mismatch);
  }
}
