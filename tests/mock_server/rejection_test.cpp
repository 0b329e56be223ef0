// rejection_test.cpp: every check the server makes on a PutObject, each failing on its own, answered with
// the S3 error code and status of reference §7.2 — and nothing stored afterwards.
#include <catch2/catch.hpp>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;
namespace sigv4 = s3up::sigv4;

namespace {

constexpr const char* hello_crc32 =
    "DUoRhQ==";  // CRC32("hello world"), reference §5.2: a valid but wrong value
constexpr const char* empty_md5_b64 = "1B2M2Y8AsgTpgAmY7PhCfg==";  // reference §5.2

const std::string& data() {
  static const std::string bytes = pattern_bytes(100000);
  return bytes;
}

void expect_rejected(const Server& server, const HttpResponse& response, int status,
                     const std::string& code) {
  INFO(response.body);
  CHECK(response.status == status);
  CHECK(response.error_code() == code);
  CHECK(response.header("Content-Type") == "application/xml");
  CHECK(response.header("x-amz-request-id"));
  CHECK(response.header("x-amz-id-2"));
  CHECK(response.element("RequestId") == response.header("x-amz-request-id"));
  CHECK(server.last_error_code() == code);
  CHECK(server.stats().rejected >= 1);
  CHECK(server.object_count() == 0);  // nothing stored from a failed request
}

// A streaming PutObject of data() in `mode` to /bucket/key, with a trailer line (or none).
HttpResponse put_streaming(const Server& server, std::string_view mode, const std::string& declared_trailer,
                           const std::string& trailer_line, std::size_t chunk_size = 65536) {
  RequestSpec spec = streaming_spec("/bucket/key", mode, data().size(), declared_trailer);
  auto built = build_request(spec, server.port());
  std::string body = aws_chunked_body(built, mode, data(), chunk_size, trailer_line);
  return send_request(server, built.head(body.size()), body);
}

HttpResponse put_raw(const Server& server, RequestSpec spec, const std::string& body) {
  spec.path = spec.path.empty() ? "/bucket/key" : spec.path;
  return send_request(server, build_request(spec, server.port()).head(body.size()), body);
}

}  // namespace

TEST_CASE("wrong CRC32 in the trailer is BadDigest") {
  Server server;
  auto mode = GENERATE(sigv4::streaming_unsigned_payload_trailer, sigv4::streaming_signed_payload_trailer);
  auto response =
      put_streaming(server, mode, "x-amz-checksum-crc32", std::string("x-amz-checksum-crc32:") + hello_crc32);
  expect_rejected(server, response, 400, "BadDigest");
  CHECK(response.element("Message") == "The CRC32 you specified did not match the calculated checksum.");
}

TEST_CASE("wrong CRC32 in the x-amz-checksum-crc32 header is BadDigest") {
  Server server;
  RequestSpec spec;
  spec.headers = {{"x-amz-checksum-crc32", hello_crc32}};
  expect_rejected(server, put_raw(server, spec, data()), 400, "BadDigest");
}

TEST_CASE("Content-MD5: a wrong digest is BadDigest, a malformed one InvalidDigest") {
  Server server;
  RequestSpec spec;
  SECTION("mismatch") {
    spec.headers = {{"content-md5", empty_md5_b64}};
    auto response = put_raw(server, spec, data());
    expect_rejected(server, response, 400, "BadDigest");
    CHECK(response.element("Message") == "The Content-MD5 you specified did not match what we received.");
  }
  SECTION("not base64 of 16 bytes") {
    spec.headers = {{"content-md5", "AAAA"}};
    expect_rejected(server, put_raw(server, spec, data()), 400, "InvalidDigest");
  }
}

TEST_CASE("a wrong chunk signature is SignatureDoesNotMatch") {
  Server server;
  auto mode = GENERATE(sigv4::streaming_signed_payload, sigv4::streaming_signed_payload_trailer);
  bool trailer = mode == sigv4::streaming_signed_payload_trailer;
  RequestSpec spec =
      streaming_spec("/bucket/key", mode, data().size(), trailer ? "x-amz-checksum-crc32" : "");
  auto built = build_request(spec, server.port());
  std::string body = aws_chunked_body(built, mode, data(), 65536,
                                      trailer ? std::string("x-amz-checksum-crc32:") + pattern_crc32 : "");
  // Flip one hex digit of the second chunk's signature.
  std::size_t second = body.find(";chunk-signature=", body.find(";chunk-signature=") + 1) + 17;
  body[second] = body[second] == '0' ? '1' : '0';
  expect_rejected(server, send_request(server, built.head(body.size()), body), 403, "SignatureDoesNotMatch");
}

TEST_CASE("a wrong trailer signature is SignatureDoesNotMatch") {
  Server server;
  auto mode = sigv4::streaming_signed_payload_trailer;
  RequestSpec spec = streaming_spec("/bucket/key", mode, data().size(), "x-amz-checksum-crc32");
  auto built = build_request(spec, server.port());
  std::string body =
      aws_chunked_body(built, mode, data(), 65536, std::string("x-amz-checksum-crc32:") + pattern_crc32);
  std::size_t at = body.find("x-amz-trailer-signature:") + 24;
  body[at] = body[at] == '0' ? '1' : '0';
  expect_rejected(server, send_request(server, built.head(body.size()), body), 403, "SignatureDoesNotMatch");
}

TEST_CASE("a body shorter than Content-Length is IncompleteBody") {
  Server server;
  auto streaming = GENERATE(false, true);
  RequestSpec spec = streaming ? streaming_spec("/bucket/key", sigv4::streaming_unsigned_payload_trailer,
                                                data().size(), "x-amz-checksum-crc32")
                               : RequestSpec{};
  spec.path = "/bucket/key";
  auto built = build_request(spec, server.port());
  std::string body = streaming ? aws_chunked_body(built, spec.payload_hash, data(), 65536,
                                                  std::string("x-amz-checksum-crc32:") + pattern_crc32)
                               : data();
  RawHttpConnection connection(server.port());
  // Announce the whole body, send all but 1000 bytes, then stop sending: the client gave up.
  connection.send(built.head(body.size()) + body.substr(0, body.size() - 1000));
  connection.shutdown_write();
  auto response = connection.read_response();
  REQUIRE(response);
  expect_rejected(server, *response, 400, "IncompleteBody");
  CHECK(response->element("NumberBytesExpected") == std::to_string(body.size()));
  CHECK(response->element("NumberBytesProvided") == std::to_string(body.size() - 1000));
}

TEST_CASE("a short chunk that is not the last is InvalidChunkSizeError") {
  Server server;
  auto mode = GENERATE(sigv4::streaming_unsigned_payload_trailer, sigv4::streaming_signed_payload);
  bool trailer = mode == sigv4::streaming_unsigned_payload_trailer;
  auto response = put_streaming(server, mode, trailer ? "x-amz-checksum-crc32" : "",
                                trailer ? std::string("x-amz-checksum-crc32:") + pattern_crc32 : "", 4096);
  expect_rejected(server, response, 400, "InvalidChunkSizeError");
  CHECK(response.element("Chunk") == "1");
  CHECK(response.element("BadChunkSize") == "4096");
}

TEST_CASE("a request signed with the wrong secret is SignatureDoesNotMatch") {
  Server server;
  RequestSpec spec;
  spec.secret_key = "not-the-secret";
  auto response = put_raw(server, spec, "abc");
  expect_rejected(server, response, 403, "SignatureDoesNotMatch");
  // The server shows what it signed so that a client can compare (S3 does the same).
  CHECK(response.element("StringToSign").starts_with("AWS4-HMAC-SHA256\n"));
  CHECK(response.element("CanonicalRequest").starts_with("PUT\n/bucket/key\n\n"));
  CHECK(response.element("AWSAccessKeyId") == s3up::mock::default_access_key);
}

TEST_CASE("an unknown access key is InvalidAccessKeyId") {
  Server server;
  RequestSpec spec;
  spec.access_key = "AKIDUNKNOWN";
  expect_rejected(server, put_raw(server, spec, "abc"), 403, "InvalidAccessKeyId");
}

TEST_CASE("an x-amz-* header left out of the signature is AccessDenied") {
  Server server;
  RequestSpec spec;
  spec.unsigned_headers = {{"x-amz-meta-colour", "blue"}};
  auto response = put_raw(server, spec, "abc");
  expect_rejected(server, response, 403, "AccessDenied");
  CHECK(response.element("Message") == "There were headers present in the request which were not signed");
  CHECK(response.element("HeadersNotSigned") == "x-amz-meta-colour");
}

TEST_CASE("a trailer other than the one x-amz-trailer declared is MalformedTrailerError") {
  Server server;
  auto response = put_streaming(server, sigv4::streaming_unsigned_payload_trailer, "x-amz-checksum-crc32c",
                                std::string("x-amz-checksum-crc32:") + pattern_crc32);
  expect_rejected(server, response, 400, "MalformedTrailerError");
}

TEST_CASE("reject_trailers refuses any request with x-amz-trailer") {
  ServerOptions options;
  options.reject_trailers = true;
  Server server(options);
  auto response = put_streaming(server, sigv4::streaming_unsigned_payload_trailer, "x-amz-checksum-crc32",
                                std::string("x-amz-checksum-crc32:") + pattern_crc32);
  expect_rejected(server, response, 400, "InvalidRequest");
  CHECK(response.element("Message") == "The value specified in the x-amz-trailer header is not supported");
}

TEST_CASE("x-amz-decoded-content-length different from the decoded bytes is IncompleteBody") {
  Server server;
  auto declared = GENERATE(std::uint64_t{99999}, std::uint64_t{100001});
  RequestSpec spec = streaming_spec("/bucket/key", sigv4::streaming_signed_payload, declared, "");
  auto built = build_request(spec, server.port());
  std::string body = aws_chunked_body(built, sigv4::streaming_signed_payload, data(), 65536, "");
  expect_rejected(server, send_request(server, built.head(body.size()), body), 400, "IncompleteBody");
}

TEST_CASE("a body that does not match a hex x-amz-content-sha256 is XAmzContentSHA256Mismatch") {
  Server server;
  RequestSpec spec;
  spec.payload_hash = pattern_sha256_hex;
  auto response = put_raw(server, spec, data().substr(1) + "!");
  expect_rejected(server, response, 400, "XAmzContentSHA256Mismatch");
  CHECK(response.element("ClientComputedContentSHA256") == pattern_sha256_hex);
}

TEST_CASE("authentication header checks") {
  Server server;
  RequestSpec spec;
  spec.path = "/bucket/key";
  SECTION("x-amz-date an hour off is RequestTimeTooSkewed") {
    auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    spec.amz_date = sigv4::amz_date(now.count() - 3600);
    expect_rejected(server, put_raw(server, spec, "abc"), 403, "RequestTimeTooSkewed");
  }
  SECTION("a credential scope for another region is AuthorizationHeaderMalformed") {
    spec.region = "eu-west-1";
    auto response = put_raw(server, spec, "abc");
    expect_rejected(server, response, 400, "AuthorizationHeaderMalformed");
    CHECK(response.element("Region") == "us-east-1");
  }
  SECTION("no x-amz-content-sha256 is InvalidRequest") {
    auto built = build_request(spec, server.port());
    std::string head = built.head(3);
    auto begin = head.find("x-amz-content-sha256:");
    head.erase(begin, head.find("\r\n", begin) + 2 - begin);
    auto response = send_request(server, head, "abc");
    expect_rejected(server, response, 400, "InvalidRequest");
    CHECK(response.element("Message") == "Missing required header for this request: x-amz-content-sha256");
  }
  SECTION("no Authorization is AccessDenied") {
    auto response =
        send_request(server, "PUT /bucket/key HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n", "abc");
    expect_rejected(server, response, 403, "AccessDenied");
  }
}

TEST_CASE("checksum header consistency checks") {
  Server server;
  RequestSpec spec;
  SECTION("two checksum headers") {
    spec.headers = {{"x-amz-checksum-crc32", pattern_crc32}, {"x-amz-checksum-crc32c", "CKxK4Q=="}};
    auto response = put_raw(server, spec, data());
    expect_rejected(server, response, 400, "InvalidRequest");
    CHECK(response.element("Message") ==
          "Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.");
  }
  SECTION("x-amz-sdk-checksum-algorithm without its checksum") {
    spec.headers = {{"x-amz-sdk-checksum-algorithm", "CRC32"}};
    expect_rejected(server, put_raw(server, spec, data()), 400, "InvalidRequest");
  }
  SECTION("a checksum header that is not base64 of 4 bytes") {
    spec.headers = {{"x-amz-checksum-crc32", "AAAAAAAA"}};
    auto response = put_raw(server, spec, data());
    expect_rejected(server, response, 400, "InvalidRequest");
    CHECK(response.element("Message") == "Value for x-amz-checksum-crc32 header is invalid.");
  }
  SECTION("a trailer value that is not base64 of 4 bytes") {
    auto response = put_streaming(server, sigv4::streaming_unsigned_payload_trailer, "x-amz-checksum-crc32",
                                  "x-amz-checksum-crc32:not*base64");
    expect_rejected(server, response, 400, "InvalidRequest");
    CHECK(response.element("Message") == "Value for x-amz-checksum-crc32 trailing header is invalid.");
  }
  SECTION("a streaming payload without Content-Encoding: aws-chunked") {
    RequestSpec streaming = streaming_spec("/bucket/key", sigv4::streaming_unsigned_payload_trailer, 3, "");
    streaming.headers.erase(streaming.headers.begin());
    auto built = build_request(streaming, server.port());
    std::string body = unsigned_aws_chunked("abc", 65536, "");
    expect_rejected(server, send_request(server, built.head(body.size()), body), 400, "InvalidRequest");
  }
  SECTION("the signed-trailer mode without its trailer") {
    auto response =
        put_streaming(server, sigv4::streaming_signed_payload_trailer, "x-amz-checksum-crc32", "");
    expect_rejected(server, response, 400, "IncompleteBody");
  }
}

TEST_CASE("missing buckets and keys, unknown operations") {
  ServerOptions options;
  options.auto_create_buckets = false;
  Server server(options);
  RequestSpec spec;
  spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  spec.omit_content_length = true;
  SECTION("PutObject into a missing bucket is NoSuchBucket") {
    RequestSpec put;
    auto response = put_raw(server, put, "abc");
    expect_rejected(server, response, 404, "NoSuchBucket");
    CHECK(response.element("BucketName") == "bucket");
  }
  SECTION("GetObject of a missing key is NoSuchKey; HEAD has no body") {
    RequestSpec create = spec;
    create.path = "/bucket";
    create.method = "PUT";
    REQUIRE(send_request(server, build_request(create, server.port()).head(0), "").status == 200);
    spec.method = "GET";
    spec.path = "/bucket/absent";
    expect_rejected(server, send_request(server, build_request(spec, server.port()).head(0), ""), 404,
                    "NoSuchKey");
    spec.method = "HEAD";
    auto head = send_request(server, build_request(spec, server.port()).head(0), "", true);
    CHECK(head.status == 404);
    CHECK(head.body.empty());
  }
  SECTION("POST other than the multipart operations is NotImplemented, PATCH MethodNotAllowed") {
    spec.method = "POST";
    spec.path = "/bucket/key";
    spec.query = {{"restore", ""}};  // RestoreObject
    expect_rejected(server, send_request(server, build_request(spec, server.port()).head(0), ""), 501,
                    "NotImplemented");
    spec.method = "PATCH";
    spec.query.clear();
    expect_rejected(server, send_request(server, build_request(spec, server.port()).head(0), ""), 405,
                    "MethodNotAllowed");
  }
}

TEST_CASE("after an error with the body unread the server answers and closes the connection") {
  Server server;
  RequestSpec spec;
  spec.path = "/bucket/key";
  spec.secret_key = "wrong";
  auto built = build_request(spec, server.port());
  RawHttpConnection connection(server.port());
  connection.send(built.head(data().size()) + data());
  auto response = connection.read_response();
  REQUIRE(response);
  CHECK(response->status == 403);
  CHECK(response->header("Connection") == "close");
  CHECK(connection.server_closed(10000));
}

TEST_CASE("a body over max_object_size is EntityTooLarge, whatever announces its size") {
  ServerOptions options;
  options.max_object_size = data().size() - 1;
  Server server(options);
  RequestSpec spec;
  spec.path = "/bucket/key";
  SECTION("Content-Length: refused before the body is read") {
    RawHttpConnection connection(server.port());
    connection.send(build_request(spec, server.port()).head(data().size()) + data());
    auto response = connection.read_response();
    REQUIRE(response);
    expect_rejected(server, *response, 400, "EntityTooLarge");
    CHECK(response->element("ProposedSize") == "100000");
    CHECK(response->element("MaxSizeAllowed") == "99999");
    CHECK(response->header("Connection") == "close");
    CHECK(connection.server_closed(10000));
  }
  SECTION("x-amz-decoded-content-length") {
    auto response = put_streaming(server, sigv4::streaming_unsigned_payload_trailer, "x-amz-checksum-crc32",
                                  std::string("x-amz-checksum-crc32:") + pattern_crc32);
    expect_rejected(server, response, 400, "EntityTooLarge");
  }
  SECTION("an HTTP chunked raw body, which announces no size") {
    spec.chunked_transfer = true;
    auto response =
        send_request(server, build_request(spec, server.port()).head(0), http_chunked(data(), 30000));
    expect_rejected(server, response, 400, "EntityTooLarge");
  }
}

TEST_CASE("a body of exactly max_object_size is stored") {
  ServerOptions options;
  options.max_object_size = data().size();
  Server server(options);
  RequestSpec spec;
  spec.path = "/bucket/key";
  spec.chunked_transfer = GENERATE(false, true);
  std::string body = spec.chunked_transfer ? http_chunked(data(), 30000) : data();
  auto response = send_request(server, build_request(spec, server.port()).head(body.size()), body);
  INFO(response.body);
  CHECK(response.status == 200);
  CHECK(server.object_count() == 1);
}

TEST_CASE("a client that goes silent gets RequestTimeout, and an idle connection is closed") {
  ServerOptions options;
  options.idle_timeout_ms = 500;
  Server server(options);
  RequestSpec spec;
  spec.path = "/bucket/key";
  RawHttpConnection connection(server.port());
  SECTION("mid-body") {
    // Content-Length promises the whole object; a tenth of it comes, then nothing (the socket stays open).
    connection.send(build_request(spec, server.port()).head(data().size()) + data().substr(0, 10000));
    auto response = connection.read_response();
    REQUIRE(response);
    expect_rejected(server, *response, 400, "RequestTimeout");
    CHECK(response->header("Connection") == "close");
  }
  SECTION("mid-head") {
    connection.send("PUT /bucket/key HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    auto response = connection.read_response();
    REQUIRE(response);
    expect_rejected(server, *response, 400, "RequestTimeout");
  }
  SECTION("between requests, silently") {
    connection.send(build_request(spec, server.port()).head(3) + "abc");
    auto response = connection.read_response();
    REQUIRE(response);
    CHECK(response->status == 200);
    CHECK_FALSE(response->header("Connection"));
    CHECK(connection.server_closed(10000));
    CHECK(server.stats().rejected == 0);
  }
}
