// etag_mode_test.cpp: ServerOptions::md5_etag. On (the default), an object's ETag is the quoted hex MD5 of
// its bytes, as S3 makes it; off, it is the quoted hex of the stored checksum, and a Content-MD5 sent with
// the request is still verified. Expected values come from the reference or from Python, never from s3up.
#include <catch2/catch.hpp>

#include <string>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;
namespace sigv4 = s3up::sigv4;

namespace {

// "hello world": CRC32 DUoRhQ== (reference §5.2), which is 0x0d4a1185: python3 -c "import zlib;
// print('%08x' % zlib.crc32(b'hello world'))". Its MD5: hashlib.md5(b'hello world').hexdigest() and
// base64.b64encode(hashlib.md5(b'hello world').digest()).
constexpr const char* hello = "hello world";
constexpr const char* hello_crc32_b64 = "DUoRhQ==";
constexpr const char* hello_crc32_etag = "\"0d4a1185\"";
constexpr const char* hello_md5_etag = "\"5eb63bbbe01eeed093cb22bb8f5acdc3\"";
constexpr const char* hello_md5_b64 = "XrY7u+Ae7tCTyyK7j1rNww==";
// A valid MD5 of other bytes, so a wrong Content-MD5: MD5 of the empty string (reference §5.2).
constexpr const char* empty_md5_b64 = "1B2M2Y8AsgTpgAmY7PhCfg==";

// pattern_bytes(100000): CRC32C CKxK4Q== and CRC64NVME 45u8TkPxNdg= (s3_request_builder.h) in hex, from
// python3 -c "import base64; print(base64.b64decode('CKxK4Q==').hex(),
// base64.b64decode('45u8TkPxNdg=').hex())"
constexpr const char* pattern_crc32c_etag = "\"08ac4ae1\"";
constexpr const char* pattern_crc64nvme_etag = "\"e39bbc4e43f135d8\"";

ServerOptions with_md5_etag(bool md5_etag) {
  ServerOptions options;
  options.md5_etag = md5_etag;
  return options;
}

// A single-request PutObject of `data` with UNSIGNED-PAYLOAD and the given signed headers.
HttpResponse put_object(const Server& server, const std::string& path, const std::string& data,
                        std::vector<sigv4::Header> headers) {
  RequestSpec spec;
  spec.path = path;
  spec.headers = std::move(headers);
  return send_request(server, build_request(spec, server.port()).head(data.size()), data);
}

HttpResponse head_object(const Server& server, const std::string& path) {
  RequestSpec spec;
  spec.method = "HEAD";
  spec.path = path;
  spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  spec.omit_content_length = true;
  return send_request(server, build_request(spec, server.port()).head(0), "", true);
}

// The ETag of the PUT response, of the stored object and of a HEAD afterwards, which must all agree.
void check_etag(const Server& server, const HttpResponse& put, const std::string& bucket,
                const std::string& key, const std::string& expected) {
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.header("ETag") == expected);
  const auto stored = server.object(bucket, key);
  REQUIRE(stored);
  CHECK(stored->etag == expected);
  CHECK(head_object(server, "/" + bucket + "/" + key).header("ETag") == expected);
}

}  // namespace

TEST_CASE("md5_etag off: the ETag is the quoted hex of the checksum sent in a header") {
  Server server(with_md5_etag(false));
  const auto put = put_object(server, "/bucket/hello", hello, {{"x-amz-checksum-crc32", hello_crc32_b64}});
  check_etag(server, put, "bucket", "hello", hello_crc32_etag);
  CHECK(put.header("x-amz-checksum-crc32") == hello_crc32_b64);
}

TEST_CASE("md5_etag off: the ETag is the quoted hex of the checksum sent in an aws-chunked trailer") {
  Server server(with_md5_etag(false));
  const std::string data = pattern_bytes(100000);
  const auto mode = sigv4::streaming_unsigned_payload_trailer;
  RequestSpec spec = streaming_spec("/bucket/pattern", mode, data.size(), "x-amz-checksum-crc32c");
  const auto built = build_request(spec, server.port());
  const std::string body =
      aws_chunked_body(built, mode, data, 65536, std::string("x-amz-checksum-crc32c:") + pattern_crc32c);
  const auto put = send_request(server, built.head(body.size()), body);
  check_etag(server, put, "bucket", "pattern", pattern_crc32c_etag);
}

TEST_CASE("md5_etag off: without a checksum, the ETag is the hex of the default CRC64NVME") {
  Server server(with_md5_etag(false));
  const auto put = put_object(server, "/bucket/plain", pattern_bytes(100000), {});
  check_etag(server, put, "bucket", "plain", pattern_crc64nvme_etag);
  CHECK(put.header("x-amz-checksum-crc64nvme") == pattern_crc64nvme);
}

TEST_CASE("md5_etag on (the default): the ETag is the quoted hex MD5 whatever the checksum") {
  CHECK(ServerOptions{}.md5_etag);
  Server server(with_md5_etag(true));
  SECTION("CRC32 header") {
    const auto put = put_object(server, "/bucket/hello", hello, {{"x-amz-checksum-crc32", hello_crc32_b64}});
    check_etag(server, put, "bucket", "hello", hello_md5_etag);
  }
  SECTION("no checksum, a larger object") {
    const auto put = put_object(server, "/bucket/plain", pattern_bytes(100000), {});
    check_etag(server, put, "bucket", "plain", std::string("\"") + pattern_md5_hex + "\"");
  }
}

TEST_CASE("md5_etag off: Content-MD5 is still verified") {
  Server server(with_md5_etag(false));
  SECTION("a wrong Content-MD5 is BadDigest and stores nothing") {
    const auto put = put_object(server, "/bucket/hello", hello,
                                {{"x-amz-checksum-crc32", hello_crc32_b64}, {"content-md5", empty_md5_b64}});
    INFO(put.body);
    CHECK(put.status == 400);
    CHECK(put.error_code() == "BadDigest");
    CHECK(put.element("CalculatedDigest") == hello_md5_b64);  // the server did compute the MD5
    CHECK(server.object_count() == 0);
  }
  SECTION("a right Content-MD5 is accepted; the ETag is still the checksum's") {
    const auto put = put_object(server, "/bucket/hello", hello,
                                {{"x-amz-checksum-crc32", hello_crc32_b64}, {"content-md5", hello_md5_b64}});
    check_etag(server, put, "bucket", "hello", hello_crc32_etag);
  }
  SECTION("a right Content-MD5 without a checksum is accepted") {
    const auto put =
        put_object(server, "/bucket/pattern", pattern_bytes(100000), {{"content-md5", pattern_md5_b64}});
    check_etag(server, put, "bucket", "pattern", pattern_crc64nvme_etag);
  }
}
