// algorithm_names_test.cpp: wire names of the algorithms (reference §5.3) and their parsing.
#include <catch2/catch.hpp>

#include "s3up/checksum.h"

using s3up::ChecksumAlgorithm;

TEST_CASE("algorithm names and header names (reference 5.3)") {
  CHECK(s3up::algorithm_name(ChecksumAlgorithm::crc32) == "CRC32");
  CHECK(s3up::algorithm_name(ChecksumAlgorithm::crc32c) == "CRC32C");
  CHECK(s3up::algorithm_name(ChecksumAlgorithm::crc64nvme) == "CRC64NVME");
  CHECK(s3up::algorithm_name(ChecksumAlgorithm::sha1) == "SHA1");
  CHECK(s3up::algorithm_name(ChecksumAlgorithm::sha256) == "SHA256");
  CHECK(s3up::algorithm_name(ChecksumAlgorithm::md5) == "MD5");
  CHECK(s3up::header_name(ChecksumAlgorithm::crc32) == "x-amz-checksum-crc32");
  CHECK(s3up::header_name(ChecksumAlgorithm::crc32c) == "x-amz-checksum-crc32c");
  CHECK(s3up::header_name(ChecksumAlgorithm::crc64nvme) == "x-amz-checksum-crc64nvme");
  CHECK(s3up::header_name(ChecksumAlgorithm::sha1) == "x-amz-checksum-sha1");
  CHECK(s3up::header_name(ChecksumAlgorithm::sha256) == "x-amz-checksum-sha256");
  CHECK(s3up::header_name(ChecksumAlgorithm::md5) == "content-md5");
  // The multipart XML elements, as in S3's CompleteMultipartUpload and ListParts documents.
  CHECK(s3up::xml_element_name(ChecksumAlgorithm::crc32) == "ChecksumCRC32");
  CHECK(s3up::xml_element_name(ChecksumAlgorithm::crc32c) == "ChecksumCRC32C");
  CHECK(s3up::xml_element_name(ChecksumAlgorithm::crc64nvme) == "ChecksumCRC64NVME");
  CHECK(s3up::xml_element_name(ChecksumAlgorithm::sha1) == "ChecksumSHA1");
  CHECK(s3up::xml_element_name(ChecksumAlgorithm::sha256) == "ChecksumSHA256");
}

TEST_CASE("digest sizes and base64 lengths") {
  CHECK(s3up::digest_size(ChecksumAlgorithm::crc32) == 4);
  CHECK(s3up::digest_size(ChecksumAlgorithm::crc32c) == 4);
  CHECK(s3up::digest_size(ChecksumAlgorithm::crc64nvme) == 8);
  CHECK(s3up::digest_size(ChecksumAlgorithm::sha1) == 20);
  CHECK(s3up::digest_size(ChecksumAlgorithm::sha256) == 32);
  CHECK(s3up::digest_size(ChecksumAlgorithm::md5) == 16);
  CHECK(s3up::base64_length(ChecksumAlgorithm::crc32) == 8);
  CHECK(s3up::base64_length(ChecksumAlgorithm::crc64nvme) == 12);
  CHECK(s3up::base64_length(ChecksumAlgorithm::sha1) == 28);
  CHECK(s3up::base64_length(ChecksumAlgorithm::sha256) == 44);
  CHECK(s3up::base64_length(ChecksumAlgorithm::md5) == 24);
}

TEST_CASE("parse_algorithm is case-insensitive and strict") {
  CHECK(s3up::parse_algorithm("crc32") == ChecksumAlgorithm::crc32);
  CHECK(s3up::parse_algorithm("CRC32") == ChecksumAlgorithm::crc32);
  CHECK(s3up::parse_algorithm("Crc32C") == ChecksumAlgorithm::crc32c);
  CHECK(s3up::parse_algorithm("CRC64NVME") == ChecksumAlgorithm::crc64nvme);
  CHECK(s3up::parse_algorithm("sha1") == ChecksumAlgorithm::sha1);
  CHECK(s3up::parse_algorithm("sha256") == ChecksumAlgorithm::sha256);
  CHECK(s3up::parse_algorithm("md5") == ChecksumAlgorithm::md5);
  CHECK_FALSE(s3up::parse_algorithm(""));
  CHECK_FALSE(s3up::parse_algorithm("crc"));
  CHECK_FALSE(s3up::parse_algorithm("crc32 "));
  CHECK_FALSE(s3up::parse_algorithm("sha512"));
  CHECK_FALSE(s3up::parse_algorithm("x-amz-checksum-crc32"));
}

TEST_CASE("algorithm_from_header maps x-amz-checksum-* only") {
  CHECK(s3up::algorithm_from_header("x-amz-checksum-crc32") == ChecksumAlgorithm::crc32);
  CHECK(s3up::algorithm_from_header("X-Amz-Checksum-CRC32C") == ChecksumAlgorithm::crc32c);
  CHECK(s3up::algorithm_from_header("x-amz-checksum-crc64nvme") == ChecksumAlgorithm::crc64nvme);
  CHECK(s3up::algorithm_from_header("x-amz-checksum-sha1") == ChecksumAlgorithm::sha1);
  CHECK(s3up::algorithm_from_header("x-amz-checksum-sha256") == ChecksumAlgorithm::sha256);
  CHECK_FALSE(s3up::algorithm_from_header("content-md5"));
  CHECK_FALSE(s3up::algorithm_from_header("x-amz-checksum-md5"));
  CHECK_FALSE(s3up::algorithm_from_header("x-amz-checksum-type"));
  CHECK_FALSE(s3up::algorithm_from_header("x-amz-checksum-algorithm"));
  CHECK_FALSE(s3up::algorithm_from_header("crc32"));
}
