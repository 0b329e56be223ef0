// signing_key_test.cpp: signing-key derivation (reference §4.1) and HMAC-SHA256 (RFC 4231 vectors).
#include <catch2/catch.hpp>

#include <vector>

#include "s3_examples.h"

namespace sigv4 = s3up::sigv4;

namespace {
std::string hex(std::span<const std::byte> bytes) {
  return s3up::hex_encode(bytes);
}
std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}
}  // namespace

TEST_CASE("signing key of the S3 examples (reference 4.1)") {
  const auto key = sigv4::derive_signing_key(s3_examples::secret_access_key, s3_examples::scope());
  CHECK(hex(key) == "dbb893acc010964918f1fd433add87c70e8b0db6be30c1fbeafefa5ec6ba8378");
}

TEST_CASE("signing key of the AWS General Reference example (reference 4.1, service iam)") {
  const sigv4::CredentialScope scope{"20120215", "us-east-1", "iam"};
  const auto key = sigv4::derive_signing_key("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", scope);
  CHECK(hex(key) == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d");
}

TEST_CASE("credential scope text") {
  CHECK(s3_examples::scope().to_string() == "20130524/us-east-1/s3/aws4_request");
  CHECK(sigv4::CredentialScope{"20150830", "eu-west-1"}.to_string() == "20150830/eu-west-1/s3/aws4_request");
}

TEST_CASE("HMAC-SHA256 RFC 4231 test cases 1, 2 and 6") {
  const std::vector<std::byte> key1(20, std::byte{0x0b});
  CHECK(hex(sigv4::HmacSha256(key1).mac("Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hex(sigv4::HmacSha256(as_bytes("Jefe")).mac("what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Case 6: a 131-byte key, longer than the block, is hashed first.
  const std::vector<std::byte> key6(131, std::byte{0xaa});
  CHECK(hex(sigv4::HmacSha256(key6).mac("Test Using Larger Than Block-Size Key - Hash Key First")) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("HMAC-SHA256 with a key of exactly one block, reused across messages") {
  // Python: hmac.new(b"k" * 64, b"exactly one block of key", hashlib.sha256).hexdigest()
  const std::vector<std::byte> key(64, std::byte{'k'});
  sigv4::HmacSha256 mac(key);
  for (int i = 0; i < 3; ++i)
    CHECK(hex(mac.mac("exactly one block of key")) ==
          "baa93ea4ccc7062ed6870c5e7937dbd35ad7791df4e29df9addeb429ff491acf");
  // The same object then serves another message (RFC 4231 would need its own key; reuse the Jefe check).
  sigv4::HmacSha256 jefe(as_bytes("Jefe"));
  CHECK(hex(jefe.mac("Hi There")) != hex(jefe.mac("what do ya want for nothing?")));
  CHECK(hex(jefe.mac("what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}
