// canonical_test.cpp: the pieces of the canonical request (reference §3.1): URI encoding and decoding,
// query and header canonicalisation. Expected strings are written out by hand from the rules.
#include <catch2/catch.hpp>

#include "s3up/sigv4.h"

namespace sigv4 = s3up::sigv4;

TEST_CASE("uri_encode keeps unreserved characters and encodes the rest once, upper-case") {
  CHECK(sigv4::uri_encode("AZaz09-_.~", true) == "AZaz09-_.~");
  CHECK(sigv4::uri_encode("/test$file.text", false) == "/test%24file.text");
  CHECK(sigv4::uri_encode("/a b/c", false) == "/a%20b/c");
  CHECK(sigv4::uri_encode("/a b/c", true) == "%2Fa%20b%2Fc");
  CHECK(sigv4::uri_encode("a+b=c&d", true) == "a%2Bb%3Dc%26d");
  CHECK(sigv4::uri_encode("%2F", false) == "%252F");       // encoded once more, never decoded first
  CHECK(sigv4::uri_encode("\xC3\xA9", true) == "%C3%A9");  // UTF-8 bytes, each encoded
  CHECK(sigv4::uri_encode(std::string_view("\0\x7f\xff", 3), true) == "%00%7F%FF");
  CHECK(sigv4::uri_encode("", true) == "");
}

TEST_CASE("uri_decode reverses uri_encode and rejects malformed escapes") {
  CHECK(sigv4::uri_decode("/test%24file.text") == "/test$file.text");
  CHECK(sigv4::uri_decode("%2fa%2Fb") == "/a/b");
  CHECK(sigv4::uri_decode("a+b") == "a+b");  // not form encoding: '+' is a plus
  CHECK(sigv4::uri_decode("%C3%A9") == "\xC3\xA9");
  CHECK(sigv4::uri_decode("%00") == std::string(1, '\0'));
  CHECK(sigv4::uri_decode("") == "");
  CHECK_FALSE(sigv4::uri_decode("%"));
  CHECK_FALSE(sigv4::uri_decode("%4"));
  CHECK_FALSE(sigv4::uri_decode("abc%"));
  CHECK_FALSE(sigv4::uri_decode("%G0"));
  CHECK_FALSE(sigv4::uri_decode("%0g"));
  const std::string raw = "/bucket/my key/ü+&=?#%";
  CHECK(sigv4::uri_decode(sigv4::uri_encode(raw, false)) == raw);
  CHECK(sigv4::uri_decode(sigv4::uri_encode(raw, true)) == raw);
}

TEST_CASE("canonical_uri: S3 does not normalise paths") {
  CHECK(sigv4::canonical_uri("") == "/");
  CHECK(sigv4::canonical_uri("/") == "/");
  CHECK(sigv4::canonical_uri("/bucket/a/../b/./c//d") == "/bucket/a/../b/./c//d");
  CHECK(sigv4::canonical_uri("/bucket/my key") == "/bucket/my%20key");
}

TEST_CASE("canonical_query_string sorts by encoded name, then value") {
  CHECK(sigv4::canonical_query_string({}) == "");
  CHECK(sigv4::canonical_query_string({{"uploads", ""}}) == "uploads=");
  CHECK(sigv4::canonical_query_string({{"uploadId", "a/b c"}, {"partNumber", "2"}}) ==
        "partNumber=2&uploadId=a%2Fb%20c");
  // Same name twice: ordered by value.
  CHECK(sigv4::canonical_query_string({{"k", "b"}, {"k", "a"}}) == "k=a&k=b");
  // Upper case sorts before lower case (byte order), as in the test suite's key-case case.
  CHECK(sigv4::canonical_query_string({{"b", "1"}, {"B", "2"}, {"a", "3"}}) == "B=2&a=3&b=1");
  // Sorting is on the encoded form: "%" (0x25) sorts before "-" (0x2D); raw " " would too, but "~" would not.
  CHECK(sigv4::canonical_query_string({{"a-b", "1"}, {"a b", "2"}, {"a~", "3"}}) == "a%20b=2&a-b=1&a~=3");
}

TEST_CASE("canonical_headers lowercases, sorts, trims and collapses") {
  const std::vector<sigv4::Header> headers = {
      {"X-Amz-Meta-B", "  two   words  "}, {"Host", "h"}, {"x-amz-meta-a", "\tx\t"}, {"Empty", ""}};
  CHECK(sigv4::canonical_headers(headers) == "empty:\nhost:h\nx-amz-meta-a:x\nx-amz-meta-b:two words\n");
  CHECK(sigv4::signed_headers(headers) == "empty;host;x-amz-meta-a;x-amz-meta-b");
}

TEST_CASE("a header given twice is one canonical line, values in the order given") {
  const std::vector<sigv4::Header> headers = {{"X-Amz-Meta-A", "1"},
                                              {"x-amz-meta-z", "z"},
                                              {"host", "h"},
                                              {"x-amz-meta-a", " 2 "},
                                              {"X-AMZ-META-A", "3"}};
  CHECK(sigv4::canonical_headers(headers) == "host:h\nx-amz-meta-a:1,2,3\nx-amz-meta-z:z\n");
  CHECK(sigv4::signed_headers(headers) == "host;x-amz-meta-a;x-amz-meta-z");
}

TEST_CASE("canonical_request layout: six lines, blank line after the headers, no final LF") {
  sigv4::RequestToSign request;
  request.method = "POST";
  request.path = "/bucket/key";
  request.query = {{"uploads", ""}};
  request.headers = {{"host", "h"}};
  request.payload_hash = sigv4::unsigned_payload;
  CHECK(sigv4::canonical_request(request) == "POST\n/bucket/key\nuploads=\nhost:h\n\nhost\nUNSIGNED-PAYLOAD");
}
