// streaming_test.cpp: seeds and chained chunk/trailer signatures of aws-chunked bodies: the S3
// documentation examples (reference §4.3, §4.4), AWS SDK vectors (§4.5) and regression vectors (§4.7).
#include <catch2/catch.hpp>

#include <string>

#include "s3_examples.h"

namespace sigv4 = s3up::sigv4;
using s3up::ChecksumAlgorithm;

namespace {

// The chunkObject.txt request of §4.3/§4.4; signs content-length only when given.
sigv4::RequestToSign chunk_object_request(std::string_view payload, std::string_view content_length,
                                          std::string_view trailer) {
  sigv4::RequestToSign request;
  request.method = "PUT";
  request.path = "/examplebucket/chunkObject.txt";
  request.headers = {{"Host", "s3.amazonaws.com"},
                     {"x-amz-date", std::string(s3_examples::amz_date)},
                     {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                     {"Content-Encoding", "aws-chunked"},
                     {"x-amz-decoded-content-length", "66560"},
                     {"x-amz-content-sha256", std::string(payload)}};
  if (!content_length.empty()) request.headers.push_back({"Content-Length", std::string(content_length)});
  if (!trailer.empty()) request.headers.push_back({"x-amz-trailer", std::string(trailer)});
  request.payload_hash = payload;
  return request;
}

sigv4::SignedRequest sign(const sigv4::RequestToSign& request) {
  return sigv4::sign_request(request, s3_examples::credentials(), s3_examples::scope(),
                             s3_examples::amz_date);
}

sigv4::ChunkSigner chunk_signer(std::string_view seed) {
  return sigv4::ChunkSigner(sigv4::derive_signing_key(s3_examples::secret_access_key, s3_examples::scope()),
                            s3_examples::amz_date, s3_examples::scope(), s3_examples::signature_of(seed));
}

s3up::Digest sha256(std::string_view data) {
  return s3up::compute_checksum(ChecksumAlgorithm::sha256, data);
}

const s3up::Digest empty_sha256 = sha256("");

}  // namespace

TEST_CASE("STREAMING-AWS4-HMAC-SHA256-PAYLOAD seed (reference 4.3)") {
  const auto signed_request = sign(chunk_object_request(sigv4::streaming_signed_payload, "66824", ""));
  CHECK(signed_request.canonical_request ==
        "PUT\n"
        "/examplebucket/chunkObject.txt\n"
        "\n"
        "content-encoding:aws-chunked\n"
        "content-length:66824\n"
        "host:s3.amazonaws.com\n"
        "x-amz-content-sha256:STREAMING-AWS4-HMAC-SHA256-PAYLOAD\n"
        "x-amz-date:20130524T000000Z\n"
        "x-amz-decoded-content-length:66560\n"
        "x-amz-storage-class:REDUCED_REDUNDANCY\n"
        "\n"
        "content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;"
        "x-amz-storage-class\n"
        "STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "cee3fed04b70f867d036f722359b0b1f2f0e5dc0efadbc082b76c4c60e316455");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
}

TEST_CASE("signed chunk signatures (reference 4.3)") {
  auto signer = chunk_signer("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
  const auto chunk1 = sha256(std::string(65536, 'a'));
  const auto chunk2 = sha256(std::string(1024, 'a'));
  for (int attempt = 0; attempt < 2; ++attempt) {  // the second pass checks restart() rewinds to the seed
    CHECK(sigv4::to_string_view(signer.sign_chunk(chunk1)) ==
          "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648");
    CHECK(sigv4::to_string_view(signer.sign_chunk(chunk2)) ==
          "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497");
    CHECK(sigv4::to_string_view(signer.sign_chunk(empty_sha256)) ==
          "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
    CHECK(sigv4::to_string_view(signer.previous_signature()) ==
          "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
    signer.restart();
    CHECK(sigv4::to_string_view(signer.previous_signature()) ==
          "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
  }
}

TEST_CASE("chunk signer survives a move mid-chain") {
  auto signer = chunk_signer("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
  CHECK(sigv4::to_string_view(signer.sign_chunk(sha256(std::string(65536, 'a')))) ==
        "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648");
  sigv4::ChunkSigner moved(std::move(signer));
  CHECK(sigv4::to_string_view(moved.sign_chunk(sha256(std::string(1024, 'a')))) ==
        "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497");
}

TEST_CASE("chunk signer rejects a digest that is not SHA-256") {
  auto signer = chunk_signer("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
  CHECK_THROWS_AS(signer.sign_chunk(s3up::compute_checksum(ChecksumAlgorithm::crc32, "a")),
                  std::invalid_argument);
}

TEST_CASE("trailing headers chained from the 4.3 final signature (reference 4.5, aws-c-auth)") {
  auto signer = chunk_signer("b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
  CHECK(sigv4::to_string_view(signer.sign_trailer("first:1st\nsecond:2nd\nthird:3rd\n")) ==
        "df5735bd9f3295cd9386572292562fefc93ba94e80a0a1ddcbd652c4e0a75e6c");
}

TEST_CASE("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER seed (reference 4.4)") {
  const auto signed_request =
      sign(chunk_object_request(sigv4::streaming_signed_payload_trailer, "", "x-amz-checksum-crc32c"));
  CHECK(signed_request.canonical_request ==
        "PUT\n"
        "/examplebucket/chunkObject.txt\n"
        "\n"
        "content-encoding:aws-chunked\n"
        "host:s3.amazonaws.com\n"
        "x-amz-content-sha256:STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER\n"
        "x-amz-date:20130524T000000Z\n"
        "x-amz-decoded-content-length:66560\n"
        "x-amz-storage-class:REDUCED_REDUNDANCY\n"
        "x-amz-trailer:x-amz-checksum-crc32c\n"
        "\n"
        "content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-"
        "class;"
        "x-amz-trailer\n"
        "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER");
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "44d48b8c2f70eae815a0198cc73d7a546a73a93359c070abbaa5e6c7de112559");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e");
}

TEST_CASE("signed-trailer seed with content-length signed is a different signature (reference 4.4 caveat)") {
  const auto signed_request =
      sign(chunk_object_request(sigv4::streaming_signed_payload_trailer, "66824", "x-amz-checksum-crc32c"));
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "31bb90dd24033e476da30f575dd255676ea7fd23869915612744ee1e3b4ce042");
}

TEST_CASE("signed-trailer chunk and trailer signatures (reference 4.4, 4.5 Java)") {
  auto signer = chunk_signer("106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e");
  const auto chunk1 = sha256(std::string(65536, 'a'));
  const auto chunk2 = sha256(std::string(1024, 'a'));
  const std::string body(66560, 'a');
  const std::string crc32c = s3up::compute_checksum(ChecksumAlgorithm::crc32c, body).base64();
  REQUIRE(crc32c == "sOO8/Q==");
  const std::string trailers = "x-amz-checksum-crc32c:" + crc32c + "\n";
  REQUIRE(s3_examples::sha256_hex(trailers) ==
          "1e376db7e1a34a8ef1c4bcee131a2d60a1cb62503747488624e10995f448d774");

  for (int attempt = 0; attempt < 2; ++attempt) {
    CHECK(sigv4::to_string_view(signer.sign_chunk(chunk1)) ==
          "b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2");
    CHECK(sigv4::to_string_view(signer.sign_chunk(chunk2)) ==
          "1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7");
    CHECK(sigv4::to_string_view(signer.sign_chunk(empty_sha256)) ==
          "2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992");
    if (attempt == 0) {
      CHECK(sigv4::to_string_view(signer.sign_trailer(trailers)) ==
            "d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435");
    } else {
      // aws-sdk-java-v2 ChunkedEncodedInputStreamTest: same chain, CRC32C of "a" as the trailer value.
      CHECK(sigv4::to_string_view(signer.sign_trailer("x-amz-checksum-crc32c:wdBDMA==\n")) ==
            "ce306fa4cdf73aa89071b78358f0d22ea79c43117314c8ed68017f7d6f91048e");
    }
    signer.restart();
  }
}

TEST_CASE("STREAMING-UNSIGNED-PAYLOAD-TRAILER seed (reference 4.7, self-derived)") {
  const auto signed_request =
      sign(chunk_object_request(sigv4::streaming_unsigned_payload_trailer, "", "x-amz-checksum-crc32c"));
  CHECK(signed_request.signed_headers ==
        "content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-"
        "class;"
        "x-amz-trailer");
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "58bd19dcca1fbf1f5564f58c964e56d187081c98da21920d4bd77fb6b36bb042");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "b3c1af636119354fb0277e0af8508f39d041adeecd27737745d6f319d49f0282");
}

TEST_CASE("small signed-trailer request: seed, chunks, trailer (reference 4.7, self-derived)") {
  sigv4::RequestToSign request;
  request.method = "PUT";
  request.path = "/examplebucket/hello.txt";
  request.headers = {{"Host", "s3.amazonaws.com"},
                     {"Content-Encoding", "aws-chunked"},
                     {"x-amz-content-sha256", std::string(sigv4::streaming_signed_payload_trailer)},
                     {"x-amz-date", std::string(s3_examples::amz_date)},
                     {"x-amz-decoded-content-length", "11"},
                     {"x-amz-trailer", "x-amz-checksum-crc32"}};
  request.payload_hash = sigv4::streaming_signed_payload_trailer;
  const auto signed_request = sign(request);
  CHECK(signed_request.signed_headers ==
        "content-encoding;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-trailer");
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "b8d8c163b438e8791f0430a074f22206f65570afe57dc22488b532a4dbce0279");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "db1360b744709966992bf9b524745bbfbe0f094219bf8c26312ab85558b117a4");

  sigv4::ChunkSigner signer(sigv4::derive_signing_key(s3_examples::secret_access_key, s3_examples::scope()),
                            s3_examples::amz_date, s3_examples::scope(), signed_request.signature);
  CHECK(sigv4::to_string_view(signer.sign_chunk(sha256("hello world"))) ==
        "c7acc415d525c0601593743ceb09ed2f657c1964060f344f020b76f20ba9275b");
  CHECK(sigv4::to_string_view(signer.sign_chunk(empty_sha256)) ==
        "c18761bfd608772ff8111fc39f4fee4c2ee7752bf88052ee7d520e25474b0d6c");
  REQUIRE(s3up::compute_checksum(ChecksumAlgorithm::crc32, "hello world").base64() == "DUoRhQ==");
  CHECK(sigv4::to_string_view(signer.sign_trailer("x-amz-checksum-crc32:DUoRhQ==\n")) ==
        "41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391");
}
