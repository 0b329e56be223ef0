// header_checksum_preread_test.cpp: HeaderChecksumPreread digests against one-shot computations, size checks,
// the rewind it leaves behind, and the not_rewindable refusal before any read.
#include <catch2/catch.hpp>

#include "body_test_util.h"

using body_test::ScriptedSource;
using s3up::BodyError;
using s3up::ChecksumAlgorithm;

TEST_CASE("preread: digests equal one-shot computations and the source is rewound") {
  s3up::HeaderChecksumPreread preread(64 * 1024);  // smaller than the bodies: several buffer refills
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65536}, std::size_t{300001}}) {
    const std::string object = body_test::pattern(size, 17);
    for (ChecksumAlgorithm algorithm :
         {ChecksumAlgorithm::crc32, ChecksumAlgorithm::crc32c, ChecksumAlgorithm::crc64nvme,
          ChecksumAlgorithm::sha1, ChecksumAlgorithm::sha256}) {
      INFO("size " << size << ", " << s3up::algorithm_name(algorithm));
      ScriptedSource source(object, size, 10000);
      s3up::PrereadDigests digests = preread.run(source, algorithm, true, true);
      CHECK(digests.bytes == size);
      REQUIRE(digests.checksum.has_value());
      CHECK(*digests.checksum == s3up::compute_checksum(algorithm, object));
      REQUIRE(digests.payload_sha256.has_value());
      CHECK(digests.payload_sha256->hex() == body_test::sha256_hex(object));
      REQUIRE(digests.content_md5.has_value());
      CHECK(*digests.content_md5 == s3up::compute_checksum(ChecksumAlgorithm::md5, object));
      CHECK(source.rewinds == 1);
      s3up::RawBodyEncoder encoder(source);
      CHECK(body_test::drain(encoder, 4096) == object);
    }
  }
}

TEST_CASE("preread: published values and only the digests asked for") {
  s3up::HeaderChecksumPreread preread;
  s3up::MemorySource source(std::string_view("hello world"));
  s3up::PrereadDigests digests = preread.run(source, ChecksumAlgorithm::crc32, false, false);
  REQUIRE(digests.checksum.has_value());
  CHECK(digests.checksum->base64() == "DUoRhQ==");  // reference §5.2
  CHECK_FALSE(digests.payload_sha256.has_value());
  CHECK_FALSE(digests.content_md5.has_value());
  CHECK(digests.bytes == 11);

  s3up::MemorySource welcome(std::string_view("Welcome to Amazon S3."));
  digests = preread.run(welcome, std::nullopt, true, false);
  CHECK_FALSE(digests.checksum.has_value());
  REQUIRE(digests.payload_sha256.has_value());
  CHECK(digests.payload_sha256->hex() ==
        "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");  // §4.2
}

TEST_CASE("preread: a one-pass source is refused before anything is read") {
  s3up::HeaderChecksumPreread preread;
  ScriptedSource source("data", 4, SIZE_MAX, false);
  std::string message;
  CHECK(body_test::error_kind([&] { preread.run(source, ChecksumAlgorithm::crc32, false, false); },
                              &message) == BodyError::Kind::not_rewindable);
  CHECK(source.reads == 0);
  CHECK(message.find("--checksum-location trailer") != std::string::npos);
}

TEST_CASE("preread: size mismatches are errors, unknown sizes are counted") {
  s3up::HeaderChecksumPreread preread(4096);
  const std::string object = body_test::pattern(10000, 2);
  ScriptedSource short_source(object, 10001);
  CHECK(body_test::error_kind([&] { preread.run(short_source, ChecksumAlgorithm::crc32, false, false); }) ==
        BodyError::Kind::ended_early);
  ScriptedSource long_source(object, 9999);
  CHECK(body_test::error_kind([&] { preread.run(long_source, ChecksumAlgorithm::crc32, false, false); }) ==
        BodyError::Kind::longer_than_declared);

  ScriptedSource unknown(object, std::nullopt);
  s3up::PrereadDigests digests = preread.run(unknown, ChecksumAlgorithm::crc32c, false, false);
  CHECK(digests.bytes == 10000);
  CHECK(*digests.checksum == s3up::compute_checksum(ChecksumAlgorithm::crc32c, object));
}
