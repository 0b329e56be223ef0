// aws_chunked_length_test.cpp: the encoded Content-Length formula against the checked values and the
// trailer-line table of reference §2.6.
#include <catch2/catch.hpp>

#include "body_test_util.h"

using s3up::aws_chunked_length;
using s3up::ChecksumAlgorithm;

TEST_CASE("aws_chunked_length: checked values of reference 2.6") {
  CHECK(aws_chunked_length(66560, 65536, true, std::nullopt) == 66824);
  CHECK(aws_chunked_length(66560, 65536, true, ChecksumAlgorithm::crc32c) == 66946);
  CHECK(aws_chunked_length(66560, 65536, false, ChecksumAlgorithm::crc32c) == 66613);
  CHECK(aws_chunked_length(0, 65536, true, std::nullopt) == 86);
  CHECK(aws_chunked_length(0, 65536, false, ChecksumAlgorithm::crc32) == 36);
  CHECK(aws_chunked_length(0, 65536, true, ChecksumAlgorithm::crc32) == 207);
}

TEST_CASE("aws_chunked_length: trailer line lengths of the reference 2.6 table") {
  // An empty unsigned body is "0\r\n" + trailer line (incl. CRLF) + "\r\n".
  CHECK(aws_chunked_length(0, 65536, false, ChecksumAlgorithm::crc32) == 5 + 31);
  CHECK(aws_chunked_length(0, 65536, false, ChecksumAlgorithm::crc32c) == 5 + 32);
  CHECK(aws_chunked_length(0, 65536, false, ChecksumAlgorithm::crc64nvme) == 5 + 39);
  CHECK(aws_chunked_length(0, 65536, false, ChecksumAlgorithm::sha1) == 5 + 50);
  CHECK(aws_chunked_length(0, 65536, false, ChecksumAlgorithm::sha256) == 5 + 68);
  CHECK(aws_chunked_length(0, 65536, false, std::nullopt) == 5);
  // Signed-trailer adds the 90-byte trailer-signature line and the 81-byte chunk extension.
  CHECK(aws_chunked_length(0, 65536, true, ChecksumAlgorithm::sha256) == 5 + 81 + 68 + 90);
}

TEST_CASE("aws_chunked_length: agrees with the reference encoder's output length") {
  for (std::size_t chunk : {std::size_t{8192}, std::size_t{65536}}) {
    for (std::size_t n : {0, 1, 15, 16, 8191, 8192, 65535, 65536, 65537, 66560, 131072, 200000}) {
      const std::string object(n, 'x');
      for (auto algorithm : body_test::trailer_algorithms()) {
        INFO("n " << n << ", chunk " << chunk << ", " << body_test::name_of(algorithm));
        CHECK(aws_chunked_length(n, chunk, false, algorithm) ==
              body_test::reference_encode(object, chunk, algorithm).size());
        // The signed reference body's length does not depend on the signature values.
        CHECK(aws_chunked_length(n, chunk, true, algorithm) ==
              body_test::reference_encode(object, chunk, algorithm, std::string(64, '0')).size());
      }
    }
  }
}

TEST_CASE("aws_chunked_length: MD5 is not a trailer") {
  CHECK_THROWS_AS(aws_chunked_length(10, 65536, false, ChecksumAlgorithm::md5), s3up::BodyError);
}
