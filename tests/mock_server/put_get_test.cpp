// put_get_test.cpp: successful uploads in every payload mode over real sockets (plain, TLS, HTTP chunked),
// read back byte for byte, and published request vectors replayed verbatim.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;
namespace sigv4 = s3up::sigv4;

namespace {

HttpResponse get_object(const Server& server, const std::string& path, bool head_request = false) {
  RequestSpec spec;
  spec.method = head_request ? "HEAD" : "GET";
  spec.path = path;
  spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  spec.headers = {{"x-amz-checksum-mode", "ENABLED"}};
  spec.omit_content_length = true;
  return send_request(server, build_request(spec, server.port()).head(0), "", head_request);
}

struct ModeCase {
  const char* name;
  std::string_view payload;     // x-amz-content-sha256
  std::string checksum_header;  // "x-amz-checksum-..." sent as a header, or ""
  std::string checksum_value;
  std::string trailer_name;  // streaming trailer, or ""
  std::size_t chunk_size = 65536;
};

}  // namespace

TEST_CASE("PutObject succeeds in every payload mode and GetObject returns the same bytes") {
  Server server;
  const std::string data = pattern_bytes(100000);
  const std::vector<ModeCase> cases = {
      {"hex sha256 + sha256 header", pattern_sha256_hex, "x-amz-checksum-sha256", pattern_sha256_b64, "", 0},
      {"hex sha256 + sha1 header", pattern_sha256_hex, "x-amz-checksum-sha1", pattern_sha1, "", 0},
      {"UNSIGNED-PAYLOAD + crc32c header", sigv4::unsigned_payload, "x-amz-checksum-crc32c", pattern_crc32c,
       "", 0},
      {"STREAMING-UNSIGNED-PAYLOAD-TRAILER + crc64nvme", sigv4::streaming_unsigned_payload_trailer, "",
       pattern_crc64nvme, "x-amz-checksum-crc64nvme", 65536},
      {"STREAMING-AWS4-HMAC-SHA256-PAYLOAD, 8 KiB chunks", sigv4::streaming_signed_payload, "", "", "", 8192},
      {"STREAMING-AWS4-HMAC-SHA256-PAYLOAD + crc32 header", sigv4::streaming_signed_payload,
       "x-amz-checksum-crc32", pattern_crc32, "", 65536},
      {"STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER + crc32", sigv4::streaming_signed_payload_trailer, "",
       pattern_crc32, "x-amz-checksum-crc32", 65536},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const std::string key = std::string("objects/") + c.name;
      bool streaming = c.chunk_size != 0;
      RequestSpec spec = streaming ? streaming_spec("/bucket/" + key, c.payload, data.size(), c.trailer_name)
                                   : RequestSpec{};
      spec.path = "/bucket/" + key;
      spec.payload_hash = std::string(c.payload);
      if (!c.checksum_header.empty()) spec.headers.push_back({c.checksum_header, c.checksum_value});
      spec.headers.push_back({"content-md5", pattern_md5_b64});
      spec.headers.push_back({"content-type", "application/x-test"});
      auto built = build_request(spec, server.port());
      std::string trailer = c.trailer_name.empty() ? "" : c.trailer_name + ":" + c.checksum_value;
      std::string body = streaming ? aws_chunked_body(built, c.payload, data, c.chunk_size, trailer) : data;

      auto put = send_request(server, built.head(body.size()), body);
      INFO(put.body);
      REQUIRE(put.status == 200);
      CHECK(put.header("ETag") == "\"" + std::string(pattern_md5_hex) + "\"");
      CHECK(put.header("x-amz-request-id"));
      CHECK(put.header("x-amz-id-2"));
      std::string checksum_name = c.checksum_header.empty() ? c.trailer_name : c.checksum_header;
      if (!checksum_name.empty()) {
        CHECK(put.header(checksum_name) == c.checksum_value);
        CHECK(put.header("x-amz-checksum-type") == "FULL_OBJECT");
      }

      auto stored = server.object("bucket", key);
      REQUIRE(stored);
      CHECK(stored->size == 100000);
      CHECK(stored->etag == "\"" + std::string(pattern_md5_hex) + "\"");
      CHECK(stored->content_type == "application/x-test");
      auto bytes = server.object_data("bucket", key);
      REQUIRE(bytes);
      CHECK(as_string(*bytes) == data);

      auto get = get_object(server, "/bucket/" + key);
      REQUIRE(get.status == 200);
      CHECK(get.body == data);
      CHECK(get.header("ETag") == "\"" + std::string(pattern_md5_hex) + "\"");
      CHECK(get.header("Content-Type") == "application/x-test");
      if (!checksum_name.empty()) CHECK(get.header(checksum_name) == c.checksum_value);

      auto head = get_object(server, "/bucket/" + key, true);
      CHECK(head.status == 200);
      CHECK(head.header("Content-Length") == "100000");
      CHECK(head.body.empty());
    }
  }
}

TEST_CASE("an aws-chunked body inside HTTP Transfer-Encoding: chunked is decoded") {
  Server server;
  const std::string data = pattern_bytes(100000);
  auto mode = GENERATE(sigv4::streaming_signed_payload_trailer, sigv4::streaming_unsigned_payload_trailer);
  RequestSpec spec = streaming_spec("/bucket/te-chunked", mode, data.size(), "x-amz-checksum-crc32c");
  spec.chunked_transfer = true;
  auto built = build_request(spec, server.port());
  std::string aws_body =
      aws_chunked_body(built, mode, data, 65536, std::string("x-amz-checksum-crc32c:") + pattern_crc32c);
  // Odd HTTP chunk sizes so that HTTP chunk edges fall inside aws-chunked lines, data and trailers.
  std::string body = http_chunked(aws_body, 7777);

  auto put = send_request(server, built.head(0), body);
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.header("x-amz-checksum-crc32c") == pattern_crc32c);
  auto bytes = server.object_data("bucket", "te-chunked");
  REQUIRE(bytes);
  CHECK(as_string(*bytes) == data);
}

TEST_CASE("a raw body in HTTP chunked transfer coding is stored") {
  Server server;
  const std::string data = pattern_bytes(100000);
  RequestSpec spec;
  spec.path = "/bucket/raw-chunked";
  spec.payload_hash = pattern_sha256_hex;
  spec.chunked_transfer = true;
  auto built = build_request(spec, server.port());
  auto put = send_request(server, built.head(0), http_chunked(data, 30000));
  REQUIRE(put.status == 200);
  CHECK(put.header("ETag") == "\"" + std::string(pattern_md5_hex) + "\"");
  CHECK(as_string(*server.object_data("bucket", "raw-chunked")) == data);
}

TEST_CASE("HTTPS round trip with the self-signed certificate") {
  char cert_path[] = "/tmp/s3up-mock-cert-XXXXXX";
  int fd = mkstemp(cert_path);
  REQUIRE(fd >= 0);
  close(fd);
  ServerOptions options;
  options.tls = true;
  options.cert_out = cert_path;
  Server server(options);
  CHECK(server.url() == "https://127.0.0.1:" + std::to_string(server.port()));
  REQUIRE(server.certificate_pem().starts_with("-----BEGIN CERTIFICATE-----"));
  std::stringstream written;
  written << std::ifstream(cert_path).rdbuf();
  CHECK(written.str() == server.certificate_pem());
  std::remove(cert_path);

  const std::string data = pattern_bytes(100000);
  RequestSpec spec = streaming_spec("/bucket/tls", sigv4::streaming_unsigned_payload_trailer, data.size(),
                                    "x-amz-checksum-crc32");
  auto built = build_request(spec, server.port());
  std::string body = aws_chunked_body(built, spec.payload_hash, data, 65536,
                                      std::string("x-amz-checksum-crc32:") + pattern_crc32);
  // send_request connects with TLS, trusting only certificate_pem() and checking it names 127.0.0.1.
  auto put = send_request(server, built.head(body.size()), body);
  INFO(put.body);
  REQUIRE(put.status == 200);
  auto get = get_object(server, "/bucket/tls");
  CHECK(get.status == 200);
  CHECK(get.body == data);
}

TEST_CASE("two requests on one keep-alive connection") {
  Server server;
  RawHttpConnection connection(server.port());
  RequestSpec put_spec;
  put_spec.path = "/bucket/hello.txt";
  put_spec.payload_hash =
      "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";  // sha256("hello world")
  put_spec.headers = {{"x-amz-checksum-crc32", "DUoRhQ=="}};               // reference §5.2
  REQUIRE(connection.send(build_request(put_spec, server.port()).head(11) + "hello world"));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(put->header("ETag") == "\"5eb63bbbe01eeed093cb22bb8f5acdc3\"");  // md5("hello world")
  CHECK_FALSE(put->header("Connection"));

  RequestSpec get_spec;
  get_spec.method = "GET";
  get_spec.path = "/bucket/hello.txt";
  get_spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  get_spec.omit_content_length = true;
  REQUIRE(connection.send(build_request(get_spec, server.port()).head(0)));
  auto get = connection.read_response();
  REQUIRE(get);
  CHECK(get->status == 200);
  CHECK(get->body == "hello world");
  CHECK_FALSE(get->header("x-amz-checksum-crc32"));  // only with x-amz-checksum-mode: ENABLED
  CHECK(server.stats().requests == 2);
  CHECK(server.stats().rejected == 0);
  CHECK(put->header("x-amz-request-id") != get->header("x-amz-request-id"));
}

TEST_CASE("Expect: 100-continue gets an interim response before the body is sent") {
  Server server;
  RawHttpConnection connection(server.port());
  RequestSpec spec;
  spec.path = "/bucket/continued";
  spec.unsigned_headers = {{"Expect", "100-continue"}};
  REQUIRE(connection.send(build_request(spec, server.port()).head(5)));
  auto interim = connection.read_response(false, true);
  REQUIRE(interim);
  CHECK(interim->status == 100);
  REQUIRE(connection.send("12345"));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(as_string(*server.object_data("bucket", "continued")) == "12345");
}

TEST_CASE("CreateBucket, HeadBucket and DeleteObject") {
  ServerOptions options;
  options.auto_create_buckets = false;
  Server server(options);
  RequestSpec spec;
  spec.path = "/newbucket";
  spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  auto created = send_request(server, build_request(spec, server.port()).head(0), "");
  CHECK(created.status == 200);

  spec.method = "HEAD";
  spec.omit_content_length = true;
  CHECK(send_request(server, build_request(spec, server.port()).head(0), "", true).status == 200);

  RequestSpec put;
  put.path = "/newbucket/k";
  CHECK(send_request(server, build_request(put, server.port()).head(3), "abc").status == 200);
  CHECK(server.object_count() == 1);

  RequestSpec del;
  del.method = "DELETE";
  del.path = "/newbucket/k";
  del.payload_hash = std::string(sigv4::empty_sha256_hex);
  del.omit_content_length = true;
  CHECK(send_request(server, build_request(del, server.port()).head(0), "").status == 204);
  CHECK(server.object_count() == 0);
  CHECK_FALSE(server.object("newbucket", "k"));
}

TEST_CASE("a PUT without a checksum gets the CRC64NVME S3 stores by default, echoed and kept") {
  Server server;
  const std::string data = pattern_bytes(100000);
  auto streaming = GENERATE(false, true);
  RequestSpec spec = streaming
                         ? streaming_spec("/bucket/plain", sigv4::streaming_signed_payload, data.size(), "")
                         : RequestSpec{};
  spec.path = "/bucket/plain";
  spec.headers.push_back({"content-md5", pattern_md5_b64});  // an MD5 is not a checksum: still the default
  auto built = build_request(spec, server.port());
  std::string body = streaming ? aws_chunked_body(built, spec.payload_hash, data, 65536, "") : data;

  auto put = send_request(server, built.head(body.size()), body);
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.header("x-amz-checksum-crc64nvme") == pattern_crc64nvme);
  CHECK(put.header("x-amz-checksum-type") == "FULL_OBJECT");
  auto stored = server.object("bucket", "plain");
  REQUIRE(stored);
  CHECK(stored->checksum ==
        std::pair<std::string, std::string>("x-amz-checksum-crc64nvme", pattern_crc64nvme));
  CHECK(get_object(server, "/bucket/plain").header("x-amz-checksum-crc64nvme") == pattern_crc64nvme);
}

TEST_CASE("an object re-uploaded over itself (recycled memory) reads back as the new bytes") {
  // 3 MiB objects live in page mappings; the second and third PUT reuse the mapping the previous one freed.
  Server server;
  for (int round = 0; round < 3; ++round) {
    INFO(round);
    std::string data = pattern_bytes(3 << 20);
    data[static_cast<std::size_t>(round) * 1000] = static_cast<char>('x' + round);  // each round differs
    RequestSpec spec;
    spec.path = "/bucket/again";
    auto put = send_request(server, build_request(spec, server.port()).head(data.size()), data);
    REQUIRE(put.status == 200);
    CHECK(as_string(*server.object_data("bucket", "again")) == data);
    CHECK(get_object(server, "/bucket/again").body == data);
  }
}
