// signed_chunk_encoder_test.cpp: SignedChunkEncoder against the published signed bodies of reference §4.3,
// §4.4 and §4.7, and against the test-side reference encoder (OpenSSL one-shot HMAC over hand-built
// strings to sign) and decoder.
#include <catch2/catch.hpp>

#include "body_test_util.h"

using body_test::drain;
using body_test::example_signer;
using body_test::ScriptedSource;
using s3up::BodyError;
using s3up::ChecksumAlgorithm;
using s3up::MemorySource;
using s3up::SignedChunkEncoder;

namespace {

// Seeds from reference §4.3, §4.4 and §4.7.
constexpr std::string_view seed_signed = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";
constexpr std::string_view seed_signed_trailer =
    "106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e";
constexpr std::string_view seed_hello = "db1360b744709966992bf9b524745bbfbe0f094219bf8c26312ab85558b117a4";

}  // namespace

TEST_CASE("signed encoder: the 66824-byte STREAMING-AWS4-HMAC-SHA256-PAYLOAD body of reference 4.3") {
  const std::string object(66560, 'a');
  MemorySource source(object);
  SignedChunkEncoder encoder(source, example_signer(seed_signed), nullptr, 65536);
  const std::string expected =
      "10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n" +
      std::string(65536, 'a') +
      "\r\n400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n" +
      std::string(1024, 'a') +
      "\r\n0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n";
  REQUIRE(expected.size() == 66824);
  CHECK(encoder.encoded_length() == 66824);
  CHECK(drain(encoder, 16 * 1024) == expected);
  CHECK_FALSE(encoder.trailer_checksum().has_value());
}

TEST_CASE("signed encoder: the 66946-byte signed-trailer body of reference 4.4") {
  const std::string object(66560, 'a');
  MemorySource source(object);
  SignedChunkEncoder encoder(source, example_signer(seed_signed_trailer),
                             s3up::make_checksum(ChecksumAlgorithm::crc32c), 65536);
  const std::string expected =
      "10000;chunk-signature=b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2\r\n" +
      std::string(65536, 'a') +
      "\r\n400;chunk-signature=1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7\r\n" +
      std::string(1024, 'a') +
      "\r\n0;chunk-signature=2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992\r\n"
      "x-amz-checksum-crc32c:sOO8/Q==\r\n"
      "x-amz-trailer-signature:d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435\r\n\r\n";
  REQUIRE(expected.size() == 66946);
  CHECK(encoder.encoded_length() == 66946);
  CHECK(drain(encoder, 1000) == expected);
  REQUIRE(encoder.trailer_checksum().has_value());
  CHECK(encoder.trailer_checksum()->base64() == "sOO8/Q==");
}

TEST_CASE("signed encoder: the 304-byte small signed-trailer body of reference 4.7") {
  MemorySource source(std::string_view("hello world"));
  SignedChunkEncoder encoder(source, example_signer(seed_hello),
                             s3up::make_checksum(ChecksumAlgorithm::crc32));
  const std::string expected =
      "b;chunk-signature=c7acc415d525c0601593743ceb09ed2f657c1964060f344f020b76f20ba9275b\r\nhello world\r\n"
      "0;chunk-signature=c18761bfd608772ff8111fc39f4fee4c2ee7752bf88052ee7d520e25474b0d6c\r\n"
      "x-amz-checksum-crc32:DUoRhQ==\r\n"
      "x-amz-trailer-signature:41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391\r\n\r\n";
  REQUIRE(expected.size() == 304);
  CHECK(encoder.encoded_length() == 304);
  CHECK(drain(encoder, 1) == expected);
}

TEST_CASE("signed encoder: chunks framed in place in a large dest give the published bytes (reference 4.3)") {
  // The first framed chunk is "10000;chunk-signature=<64>\r\n" (88 bytes), 65536 data bytes and CRLF:
  // 65626 bytes. A dest of that size or more takes it in place; one byte less, through the chunk buffer.
  const std::string object(66560, 'a');
  const std::string expected =
      "10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n" +
      std::string(65536, 'a') +
      "\r\n400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n" +
      std::string(1024, 'a') +
      "\r\n0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n";
  for (std::size_t dest : {std::size_t{1024 * 1024}, std::size_t{65626}, std::size_t{65625}}) {
    INFO("dest " << dest);
    MemorySource source(object);
    SignedChunkEncoder encoder(source, example_signer(seed_signed), nullptr, 65536);
    CHECK(drain(encoder, dest) == expected);
  }
}

TEST_CASE("signed encoder: in-place chunks with short reads, and a source ending early in place") {
  const std::string object = body_test::pattern(3 * 8192 + 5, 12);
  ScriptedSource source(object, object.size(), 777);
  SignedChunkEncoder encoder(source, example_signer(seed_signed),
                             s3up::make_checksum(ChecksumAlgorithm::crc64nvme), 8192);
  CHECK(drain(encoder, 1024 * 1024) ==
        body_test::reference_encode(object, 8192, ChecksumAlgorithm::crc64nvme, seed_signed));

  ScriptedSource short_source(object, object.size() + 1);
  SignedChunkEncoder short_encoder(short_source, example_signer(seed_signed), nullptr, 8192);
  std::string message;
  CHECK(body_test::error_kind([&] { drain(short_encoder, 1024 * 1024); }, &message) ==
        BodyError::Kind::ended_early);
  CHECK(message == "body ended after 24581 of 24582 bytes");
}

TEST_CASE("signed encoder: the reference encoder reproduces the published bodies (checks the checker)") {
  const std::string object(66560, 'a');
  CHECK(
      body_test::sha256_hex(body_test::reference_encode(object, 65536, std::nullopt, seed_signed)) ==
      body_test::sha256_hex(
          "10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n" +
          std::string(65536, 'a') +
          "\r\n400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n" +
          std::string(1024, 'a') +
          "\r\n0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n"));
  const std::string hello =
      body_test::reference_encode("hello world", 65536, ChecksumAlgorithm::crc32, seed_hello);
  CHECK(hello.find(
            "x-amz-trailer-signature:41507ea6e93215555d0796c25c4c472d94f62ef445b91b4dd2628e4a360e3391") !=
        std::string::npos);
}

TEST_CASE("signed encoder: every size x algorithm x chunk size matches the reference encoder") {
  for (std::size_t chunk_size : {std::size_t{8192}, std::size_t{65536}}) {
    const std::vector<std::size_t> sizes = {
        0, 1, 8191, 8192, chunk_size - 1, chunk_size, chunk_size + 1, 66560, 2 * 1024 * 1024 + 3};
    for (std::size_t size : sizes) {
      const std::string object = body_test::pattern(size, static_cast<std::uint32_t>(size + 1));
      for (auto algorithm : body_test::trailer_algorithms()) {
        INFO("chunk " << chunk_size << ", size " << size << ", " << body_test::name_of(algorithm));
        MemorySource source(object);
        SignedChunkEncoder encoder(source, example_signer(seed_signed), body_test::checksum_for(algorithm),
                                   chunk_size);
        const std::string body =
            body_test::drain_random(encoder, static_cast<std::uint32_t>(size), 1024 * 1024);
        const std::string expected = body_test::reference_encode(object, chunk_size, algorithm, seed_signed);
        CHECK(encoder.encoded_length() == body.size());
        CHECK(s3up::aws_chunked_length(size, chunk_size, true, algorithm) == body.size());
        REQUIRE(body.size() == expected.size());
        CHECK(body == expected);

        const body_test::Decoded decoded = body_test::decode_aws_chunked(body);
        CHECK(decoded.payload == object);
        CHECK(decoded.chunk_signatures.size() == decoded.chunk_sizes.size() + 1);
        for (std::size_t i = 0; i + 1 < decoded.chunk_sizes.size(); ++i)
          CHECK(decoded.chunk_sizes[i] == chunk_size);
        if (algorithm) {
          REQUIRE(decoded.trailers.size() == 2);
          CHECK(decoded.trailers.at(std::string(s3up::header_name(*algorithm))) ==
                s3up::compute_checksum(*algorithm, object).base64());
          CHECK(decoded.trailers.at("x-amz-trailer-signature").size() == 64);
        } else {
          CHECK(decoded.trailers.empty());
        }
      }
    }
  }
}

TEST_CASE("signed encoder: short reads from the source still give full, correctly signed chunks") {
  const std::string object = body_test::pattern(3 * 8192 + 5, 12);
  ScriptedSource source(object, object.size(), 777);
  SignedChunkEncoder encoder(source, example_signer(seed_signed),
                             s3up::make_checksum(ChecksumAlgorithm::crc64nvme), 8192);
  CHECK(drain(encoder, 8193) ==
        body_test::reference_encode(object, 8192, ChecksumAlgorithm::crc64nvme, seed_signed));
}

TEST_CASE("signed encoder: short and long sources fail") {
  const std::string object = body_test::pattern(70000, 5);
  ScriptedSource short_source(object, 70001);
  SignedChunkEncoder short_encoder(short_source, example_signer(seed_signed), nullptr);
  std::string message;
  CHECK(body_test::error_kind([&] { drain(short_encoder, 16 * 1024); }, &message) ==
        BodyError::Kind::ended_early);
  CHECK(message == "body ended after 70000 of 70001 bytes");

  for (std::size_t declared : {std::size_t{0}, std::size_t{69999}}) {
    ScriptedSource long_source(object, declared);
    SignedChunkEncoder long_encoder(long_source, example_signer(seed_signed),
                                    s3up::make_checksum(ChecksumAlgorithm::crc32));
    CHECK(body_test::error_kind([&] { drain(long_encoder, 16 * 1024); }) ==
          BodyError::Kind::longer_than_declared);
  }
}

TEST_CASE("signed encoder: rejects small chunk sizes and unknown sizes") {
  MemorySource source(std::string_view("abc"));
  CHECK(body_test::error_kind([&] {
          SignedChunkEncoder(source, example_signer(seed_signed), nullptr, 4096);
        }) == BodyError::Kind::invalid_argument);
  ScriptedSource unknown("abc", std::nullopt);
  CHECK(body_test::error_kind([&] { SignedChunkEncoder(unknown, example_signer(seed_signed), nullptr); }) ==
        BodyError::Kind::unknown_length);
}

TEST_CASE("signed encoder: restart after a partial read restarts the signature chain and the checksum") {
  const std::string object(66560, 'a');
  ScriptedSource source(object, object.size());
  SignedChunkEncoder encoder(source, example_signer(seed_signed_trailer),
                             s3up::make_checksum(ChecksumAlgorithm::crc32c), 65536);
  std::vector<std::byte> buffer(65700);  // past the first chunk: chunk 2 is read, hashed and signed
  REQUIRE(encoder.fill(buffer) == buffer.size());
  encoder.restart();
  CHECK(source.rewinds == 1);
  const std::string first = drain(encoder, 4096);
  CHECK(first.size() == 66946);
  CHECK(first.find(
            "x-amz-trailer-signature:d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435") !=
        std::string::npos);
  encoder.restart();
  CHECK(drain(encoder, 8193) == first);
}
