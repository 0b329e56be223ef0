// reference_vectors_test.cpp: requests taken byte for byte from the published S3 examples (reference §4.3,
// §4.4, §4.5, §4.7), sent to a server that uses the example credentials and skips the clock check, since
// their x-amz-date is 2013. They test the verifier against signatures it did not produce.
#include <catch2/catch.hpp>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"

using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;

namespace {

ServerOptions example_options() {
  ServerOptions options;  // the default credentials are the documented example pair
  options.check_clock_skew = false;
  return options;
}

const std::string as(std::size_t n) {
  return std::string(n, 'a');
}

// §4.3 / §4.4: the 66560 bytes of 'a' as chunks of 65536, 1024 and 0, with the given chunk signatures.
std::string example_chunks(const char* sig1, const char* sig2, const char* sig0) {
  return std::string("10000;chunk-signature=") + sig1 + "\r\n" + as(65536) + "\r\n" +
         "400;chunk-signature=" + sig2 + "\r\n" + as(1024) + "\r\n" + "0;chunk-signature=" + sig0 + "\r\n";
}

const char* const signed_trailer_head =
    "PUT /examplebucket/chunkObject.txt HTTP/1.1\r\n"
    "Host: s3.amazonaws.com\r\n"
    "x-amz-date: 20130524T000000Z\r\n"
    "x-amz-storage-class: REDUCED_REDUNDANCY\r\n"
    "x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER\r\n"
    "Content-Encoding: aws-chunked\r\n"
    "x-amz-decoded-content-length: 66560\r\n"
    "x-amz-trailer: x-amz-checksum-crc32c\r\n"
    "Content-Length: 66946\r\n"
    "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
    "SignedHeaders=content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;"
    "x-amz-storage-class;x-amz-trailer, "
    "Signature=106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e\r\n\r\n";

std::string signed_trailer_chunks() {
  return example_chunks("b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2",
                        "1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7",
                        "2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992");
}

}  // namespace

TEST_CASE("reference §4.7: small signed-trailer request") {
  Server server(example_options());
  const std::string head =
      "PUT /examplebucket/hello.txt HTTP/1.1\r\n"
      "Host: s3.amazonaws.com\r\n"
      "x-amz-date: 20130524T000000Z\r\n"
      "x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER\r\n"
      "Content-Encoding: aws-chunked\r\n"
      "x-amz-decoded-content-length: 11\r\n"
      "x-amz-trailer: x-amz-checksum-crc32\r\n"
      "Content-Length: 304\r\n"
      "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
      "SignedHeaders=content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-"
      "amz-trailer, "
      "Signature=db1360b744709966992bf9b524745bbfbe0f094219bf8c26312ab85558b117a4\r\n\r\n";
  const std::string body =
      "b;chunk-signature=c7acc415d525c0601593743ceb09ed2f657c1964060f344f020b76f20ba9275b\r\nhello world\r\n"
      "0;chunk-signature=c18761bfd608772ff8111fc39f4fee4c2ee7752bf88052ee7d520e25474b0d6c\r\n"
      "x-amz-checksum-crc32:DUoRhQ==\r\n"
      "x-amz-trailer-signature:41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391\r\n\r\n";
  REQUIRE(body.size() == 304);  // as published

  auto put = send_request(server, head, body);
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.header("ETag") == "\"5eb63bbbe01eeed093cb22bb8f5acdc3\"");  // md5("hello world")
  CHECK(put.header("x-amz-checksum-crc32") == "DUoRhQ==");
  auto stored = server.object("examplebucket", "hello.txt");
  REQUIRE(stored);
  CHECK(stored->checksum == std::pair<std::string, std::string>("x-amz-checksum-crc32", "DUoRhQ=="));
  CHECK(as_string(*server.object_data("examplebucket", "hello.txt")) == "hello world");
}

TEST_CASE("reference §4.3: signed streaming PUT (STREAMING-AWS4-HMAC-SHA256-PAYLOAD)") {
  Server server(example_options());
  const std::string head =
      "PUT /examplebucket/chunkObject.txt HTTP/1.1\r\n"
      "Host: s3.amazonaws.com\r\n"
      "x-amz-date: 20130524T000000Z\r\n"
      "x-amz-storage-class: REDUCED_REDUNDANCY\r\n"
      "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
      "SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;"
      "x-amz-decoded-content-length;x-amz-storage-class,"
      "Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9\r\n"
      "x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD\r\n"
      "Content-Encoding: aws-chunked\r\n"
      "x-amz-decoded-content-length: 66560\r\n"
      "Content-Length: 66824\r\n\r\n";
  std::string body = example_chunks("ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
                                    "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
                                    "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9") +
                     "\r\n";
  REQUIRE(body.size() == 66824);

  auto put = send_request(server, head, body);
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.header("ETag") == "\"da0d2e17cd5a8f14633c6b4aebad7e02\"");  // python: md5(b"a" * 66560)
  CHECK(as_string(*server.object_data("examplebucket", "chunkObject.txt")) == as(66560));
}

TEST_CASE("reference §4.4: signed-trailer PUT with CRC32C trailer") {
  Server server(example_options());
  std::string body =
      signed_trailer_chunks() +
      "x-amz-checksum-crc32c:sOO8/Q==\r\n"
      "x-amz-trailer-signature:d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435\r\n\r\n";
  REQUIRE(body.size() == 66946);
  auto put = send_request(server, signed_trailer_head, body);
  INFO(put.body);
  REQUIRE(put.status == 200);
  CHECK(put.header("x-amz-checksum-crc32c") == "sOO8/Q==");
}

TEST_CASE("reference §4.5: a correctly signed trailer with the wrong CRC32C is BadDigest") {
  Server server(example_options());
  // aws-sdk-java-v2's vector: wdBDMA== is the CRC32C of "a", signed with trailer signature ce306fa4....
  std::string body =
      signed_trailer_chunks() +
      "x-amz-checksum-crc32c:wdBDMA==\r\n"
      "x-amz-trailer-signature:ce306fa4cdf73aa89071b78358f0d22ea79c43117314c8ed68017f7d6f91048e\r\n\r\n";
  REQUIRE(body.size() == 66946);
  auto put = send_request(server, signed_trailer_head, body);
  CHECK(put.status == 400);
  CHECK(put.error_code() == "BadDigest");
  CHECK(put.element("Message") == "The CRC32C you specified did not match the calculated checksum.");
  CHECK(server.last_error_code() == "BadDigest");
  CHECK(server.object_count() == 0);
}
