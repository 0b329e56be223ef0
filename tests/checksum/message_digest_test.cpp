// message_digest_test.cpp: SHA1, SHA256 and MD5 (Sha1, Sha256, Md5) against published digests (reference
// §5.2) and Python hashlib values.
#include <catch2/catch.hpp>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "s3up/checksum.h"

using s3up::ChecksumAlgorithm;

TEST_CASE("sha1/sha256 S3 text form (reference 5.2)") {
  using s3up::compute_checksum;
  CHECK(compute_checksum(ChecksumAlgorithm::sha1, "123456789").base64() == "98O8HYCOBHMq32eZZczDTKeuNEE=");
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, "123456789").base64() ==
        "FeKw08M4keuw8e9gnsQZQgwg4yDOlMZfvIwzEkSOsiU=");
  CHECK(compute_checksum(ChecksumAlgorithm::sha1, "").base64() == "2jmj7l5rSw0yVb/vlWAYkK/YBwk=");
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, "").base64() ==
        "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
  CHECK(compute_checksum(ChecksumAlgorithm::sha1, "").hex() == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, "").hex() ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(compute_checksum(ChecksumAlgorithm::sha1, "hello").base64() == "qvTGHdzF6KLavt4PO0gs2a6pQ00=");
}

TEST_CASE("md5 Content-MD5 form (reference 5.2 and Python hashlib)") {
  using s3up::compute_checksum;
  CHECK(compute_checksum(ChecksumAlgorithm::md5, "").base64() == "1B2M2Y8AsgTpgAmY7PhCfg==");
  CHECK(compute_checksum(ChecksumAlgorithm::md5, "").hex() == "d41d8cd98f00b204e9800998ecf8427e");
  // base64(hashlib.md5(b"abc").digest()) and .hexdigest()
  CHECK(compute_checksum(ChecksumAlgorithm::md5, "abc").base64() == "kAFQmDzST7DWlj99KOF/cg==");
  CHECK(compute_checksum(ChecksumAlgorithm::md5, "hello world").hex() == "5eb63bbbe01eeed093cb22bb8f5acdc3");
}

TEST_CASE("sha256 hex of the S3 example bodies (reference 4.2, 4.3)") {
  using s3up::compute_checksum;
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, "Welcome to Amazon S3.").hex() ==
        "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, std::string(65536, 'a')).hex() ==
        "bf718b6f653bebc184e1479f1935b8da974d701b893afcf49e701f3e2f9f9c5a");
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, std::string(1024, 'a')).hex() ==
        "2edc986847e209b4016e141a6dc8716d3207350f416969382d431539bf292e4a");
  // hashlib.sha256(b"abc").hexdigest()
  CHECK(compute_checksum(ChecksumAlgorithm::sha256, "abc").hex() ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("message digests: random split updates and reset reuse") {
  // 1000 bytes of (i*7+3) & 0xff; expected values from Python hashlib.
  std::vector<std::byte> data(1000);
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::byte((i * 7 + 3) & 0xff);
  const std::span<const std::byte> all(data);
  const std::vector<std::pair<ChecksumAlgorithm, std::string_view>> expected = {
      {ChecksumAlgorithm::sha1, "4231a8a50a10fa9758db8ec71fdef855b751048a"},
      {ChecksumAlgorithm::sha256, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"},
      {ChecksumAlgorithm::md5, "10046f077f2082ac19676b8079f1cb1a"},
  };
  std::mt19937 rng(4242);
  for (const auto& [algorithm, hex] : expected) {
    INFO(s3up::algorithm_name(algorithm));
    const std::unique_ptr<s3up::Checksum> made = s3up::make_checksum(algorithm);
    s3up::Checksum& digest = *made;
    CHECK(digest.algorithm() == algorithm);
    for (int round = 0; round < 5; ++round) {
      std::size_t at = 0;
      while (at < data.size()) {
        const std::size_t n = std::min<std::size_t>(rng() % 200, data.size() - at);
        digest.update(all.subspan(at, n));
        at += n;
      }
      CHECK(digest.finish().hex() == hex);
      digest.reset();
    }
    // Reset in the middle of a run discards what was fed.
    digest.update(std::string_view("garbage"));
    digest.reset();
    digest.update(all);
    CHECK(digest.finish().hex() == hex);
  }
}

TEST_CASE("a copied digest carries on from the copied state, independently") {
  // What HmacSha256 relies on. hashlib.sha256(b"abc") and hashlib.sha256(b"abd"); sha1/md5 of b"hello".
  s3up::Sha256 ab;
  ab.update(std::string_view("ab"));
  s3up::Sha256 abc = ab;
  abc.update(std::string_view("c"));
  ab.update(std::string_view("d"));
  CHECK(abc.finish().hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(ab.finish().hex() == "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9");

  s3up::Sha1 he;
  he.update(std::string_view("he"));
  s3up::Sha1 hello = he;
  hello.update(std::string_view("llo"));
  CHECK(hello.finish().hex() == "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d");

  s3up::Md5 md5_he;
  md5_he.update(std::string_view("he"));
  s3up::Md5 md5_hello = md5_he;
  md5_hello.update(std::string_view("llo"));
  CHECK(md5_hello.finish().hex() == "5d41402abc4b2a76b9719d911017c592");
}

TEST_CASE("each digest class reports its algorithm and digest size") {
  CHECK(s3up::Sha1().algorithm() == ChecksumAlgorithm::sha1);
  CHECK(s3up::Sha256().algorithm() == ChecksumAlgorithm::sha256);
  CHECK(s3up::Md5().algorithm() == ChecksumAlgorithm::md5);
  CHECK(s3up::Sha1().finish().size() == 20);
  CHECK(s3up::Sha256().finish().size() == 32);
  CHECK(s3up::Md5().finish().size() == 16);
}
