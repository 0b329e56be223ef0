// trailer_encoder_test.cpp: TrailerEncoder (STREAMING-UNSIGNED-PAYLOAD-TRAILER) against the published bodies
// of reference §2.2 and §4.7, the test-side reference encoder and the test-side aws-chunked decoder.
#include <catch2/catch.hpp>

#include "body_test_util.h"

using body_test::drain;
using body_test::ScriptedSource;
using s3up::BodyError;
using s3up::ChecksumAlgorithm;
using s3up::MemorySource;
using s3up::TrailerEncoder;

TEST_CASE("trailer encoder: hello world with CRC32 is the 52-byte body of reference 2.2") {
  MemorySource source(std::string_view("hello world"));
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32));
  const std::string expected = "b\r\nhello world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n";
  REQUIRE(expected.size() == 52);
  CHECK(encoder.encoded_length() == 52);
  CHECK_FALSE(encoder.trailer_checksum().has_value());
  CHECK(drain(encoder, 16 * 1024) == expected);
  REQUIRE(encoder.trailer_checksum().has_value());
  CHECK(encoder.trailer_checksum()->base64() == "DUoRhQ==");
}

TEST_CASE("trailer encoder: empty object with CRC64NVME (reference 2.2)") {
  MemorySource source(std::string_view(""));
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc64nvme));
  const std::string expected = "0\r\nx-amz-checksum-crc64nvme:AAAAAAAAAAA=\r\n\r\n";
  CHECK(encoder.encoded_length() == expected.size());
  CHECK(drain(encoder, 7) == expected);
}

TEST_CASE("trailer encoder: empty object without a trailer ends 0 CRLF CRLF") {
  MemorySource source(std::string_view(""));
  TrailerEncoder encoder(source, nullptr);
  CHECK(encoder.encoded_length() == 5);
  CHECK(drain(encoder, 1) == "0\r\n\r\n");
  CHECK_FALSE(encoder.trailer_checksum().has_value());
}

TEST_CASE("trailer encoder: 66560 x 'a' with CRC32C is the 66613-byte body of reference 4.7") {
  const std::string object(66560, 'a');
  MemorySource source(object);
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32c), 65536);
  const std::string expected = "10000\r\n" + std::string(65536, 'a') + "\r\n400\r\n" +
                               std::string(1024, 'a') + "\r\n0\r\nx-amz-checksum-crc32c:sOO8/Q==\r\n\r\n";
  const std::string body = drain(encoder, 16 * 1024);
  CHECK(body.size() == 66613);
  CHECK(encoder.encoded_length() == 66613);
  CHECK(body == expected);
  // hashlib.sha256 of the body above, computed in Python from the text of reference §4.7.
  CHECK(body_test::sha256_hex(body) == "2b65d53f3579172d3fe78ae9f242955ea975cb1f6b5615b6b22945af80fb7c99");
}

TEST_CASE("trailer encoder: every size x algorithm x chunk size matches the reference encoder") {
  for (std::size_t chunk_size : {std::size_t{8192}, std::size_t{65536}}) {
    const std::vector<std::size_t> sizes = {
        0, 1, 8191, 8192, chunk_size - 1, chunk_size, chunk_size + 1, 66560, 3 * 1024 * 1024 + 17};
    for (std::size_t size : sizes) {
      const std::string object = body_test::pattern(size, static_cast<std::uint32_t>(size));
      for (auto algorithm : body_test::trailer_algorithms()) {
        INFO("chunk " << chunk_size << ", size " << size << ", " << body_test::name_of(algorithm));
        MemorySource source(object);
        TrailerEncoder encoder(source, body_test::checksum_for(algorithm), chunk_size);
        const std::string body =
            body_test::drain_random(encoder, static_cast<std::uint32_t>(size + chunk_size), 2 * 1024 * 1024);
        const std::string expected = body_test::reference_encode(object, chunk_size, algorithm);
        CHECK(encoder.encoded_length() == body.size());
        CHECK(s3up::aws_chunked_length(size, chunk_size, false, algorithm) == body.size());
        REQUIRE(body.size() == expected.size());
        CHECK(body == expected);

        const body_test::Decoded decoded = body_test::decode_aws_chunked(body);
        CHECK(decoded.payload == object);
        CHECK(decoded.chunk_signatures.empty());
        for (std::size_t i = 0; i + 1 < decoded.chunk_sizes.size(); ++i)
          CHECK(decoded.chunk_sizes[i] == chunk_size);
        if (algorithm) {
          REQUIRE(decoded.trailers.size() == 1);
          const std::string expected_value = s3up::compute_checksum(*algorithm, object).base64();
          CHECK(decoded.trailers.at(std::string(s3up::header_name(*algorithm))) == expected_value);
          REQUIRE(encoder.trailer_checksum().has_value());
          CHECK(encoder.trailer_checksum()->base64() == expected_value);
        } else {
          CHECK(decoded.trailers.empty());
        }
      }
    }
  }
}

TEST_CASE("trailer encoder: odd dest sizes give identical bytes") {
  const std::string object = body_test::pattern(2 * 65536 + 333, 7);
  const std::string expected = body_test::reference_encode(object, 65536, ChecksumAlgorithm::crc32c);
  for (std::size_t dest : {std::size_t{1}, std::size_t{7}, std::size_t{8193}, std::size_t{1024 * 1024}}) {
    INFO("dest " << dest);
    MemorySource source(object);
    TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32c));
    CHECK(drain(encoder, dest) == expected);
  }
  MemorySource source(object);
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32c));
  CHECK(body_test::drain_random(encoder, 99, 300) == expected);
}

TEST_CASE("trailer encoder: fills dest completely until the last call") {
  const std::string object = body_test::pattern(5 * 65536 + 100, 3);
  MemorySource source(object);
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32));
  const std::uint64_t total = encoder.encoded_length();
  std::vector<std::byte> buffer(100000);
  std::uint64_t produced = 0;
  std::size_t n;
  while ((n = encoder.fill(buffer)) != 0) {
    produced += n;
    // Only the call that ends the body may come back short of a full buffer.
    if (produced < total) CHECK(n == buffer.size());
  }
  CHECK(produced == total);
}

TEST_CASE("trailer encoder: short reads from the source still give full chunks") {
  const std::string object = body_test::pattern(3 * 8192 + 5, 11);
  ScriptedSource source(object, object.size(), 1000);
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32), 8192);
  const std::string body = drain(encoder, 64 * 1024);
  CHECK(body == body_test::reference_encode(object, 8192, ChecksumAlgorithm::crc32));
}

TEST_CASE("trailer encoder: a source shorter than declared fails with ended_early") {
  const std::string object = body_test::pattern(70000, 5);
  ScriptedSource source(object, 70001);
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32));
  std::string message;
  CHECK(body_test::error_kind([&] { drain(encoder, 16 * 1024); }, &message) == BodyError::Kind::ended_early);
  CHECK(message == "body ended after 70000 of 70001 bytes");
  CHECK_FALSE(encoder.trailer_checksum().has_value());
}

TEST_CASE("trailer encoder: a source longer than declared fails before the trailer is sent") {
  for (std::size_t declared : {std::size_t{0}, std::size_t{65536}, std::size_t{70000}}) {
    INFO("declared " << declared);
    const std::string object = body_test::pattern(declared + 1, 5);
    ScriptedSource source(object, declared);
    TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::crc32));
    std::string sent;
    std::vector<std::byte> buffer(4096);
    CHECK(body_test::error_kind([&] {
            for (std::size_t n; (n = encoder.fill(buffer)) != 0;)
              sent.append(reinterpret_cast<char*>(buffer.data()), n);
          }) == BodyError::Kind::longer_than_declared);
    CHECK(sent.find("x-amz-checksum") == std::string::npos);
  }
}

TEST_CASE("trailer encoder: rejects small chunk sizes, unknown sizes and MD5 trailers") {
  MemorySource source(std::string_view("abc"));
  CHECK(body_test::error_kind([&] { TrailerEncoder(source, nullptr, 8191); }) ==
        BodyError::Kind::invalid_argument);
  CHECK_NOTHROW(TrailerEncoder(source, nullptr, 8192));
  CHECK(body_test::error_kind([&] { TrailerEncoder(source, s3up::make_checksum(ChecksumAlgorithm::md5)); }) ==
        BodyError::Kind::invalid_argument);
  ScriptedSource unknown("abc", std::nullopt);
  CHECK(body_test::error_kind([&] { TrailerEncoder(unknown, nullptr); }) == BodyError::Kind::unknown_length);
}

TEST_CASE("trailer encoder: restart after a partial read resets the checksum and repeats the bytes") {
  const std::string object = body_test::pattern(200000, 21);
  const std::string expected = body_test::reference_encode(object, 65536, ChecksumAlgorithm::sha256);
  ScriptedSource source(object, object.size());
  TrailerEncoder encoder(source, s3up::make_checksum(ChecksumAlgorithm::sha256));
  std::vector<std::byte> buffer(100001);
  REQUIRE(encoder.fill(buffer) == buffer.size());
  encoder.restart();
  CHECK(source.rewinds == 1);
  CHECK(drain(encoder, 16 * 1024) == expected);
  encoder.restart();
  CHECK_FALSE(encoder.trailer_checksum().has_value());
  CHECK(drain(encoder, 8193) == expected);
}

TEST_CASE("trailer encoder: restart of a one-pass source is not_rewindable") {
  const std::string object = body_test::pattern(100, 1);
  ScriptedSource source(object, object.size(), SIZE_MAX, false);
  TrailerEncoder encoder(source, nullptr);
  drain(encoder, 64);
  CHECK(body_test::error_kind([&] { encoder.restart(); }) == BodyError::Kind::not_rewindable);
}
