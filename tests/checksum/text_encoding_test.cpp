// text_encoding_test.cpp: base64 (RFC 4648 test vectors) and hex encoders, and the strict digest decoder; the
// ASCII trimming and the UTF-8 sequence decoder.
#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "s3up/checksum.h"

namespace {
std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}
}  // namespace

TEST_CASE("base64 encodes the RFC 4648 section 10 vectors") {
  CHECK(s3up::base64_encode(as_bytes("")) == "");
  CHECK(s3up::base64_encode(as_bytes("f")) == "Zg==");
  CHECK(s3up::base64_encode(as_bytes("fo")) == "Zm8=");
  CHECK(s3up::base64_encode(as_bytes("foo")) == "Zm9v");
  CHECK(s3up::base64_encode(as_bytes("foob")) == "Zm9vYg==");
  CHECK(s3up::base64_encode(as_bytes("fooba")) == "Zm9vYmE=");
  CHECK(s3up::base64_encode(as_bytes("foobar")) == "Zm9vYmFy");
  CHECK(s3up::base64_encoded_size(0) == 0);
  CHECK(s3up::base64_encoded_size(4) == 8);
  CHECK(s3up::base64_encoded_size(32) == 44);
}

TEST_CASE("base64 uses + and / (standard alphabet, not URL-safe)") {
  const std::array<std::byte, 3> bytes = {std::byte{0xfb}, std::byte{0xff}, std::byte{0xbf}};
  CHECK(s3up::base64_encode(bytes) == "+/+/");
}

TEST_CASE("base64_to and hex_to write into caller buffers") {
  const auto digest = s3up::compute_checksum(s3up::ChecksumAlgorithm::crc32c, "123456789");
  std::array<char, 8> b64{};
  CHECK(digest.base64_to(b64) == 8);
  CHECK(std::string_view(b64.data(), 8) == "4waSgw==");
  std::array<char, 8> hex{};
  digest.hex_to(hex);
  CHECK(std::string_view(hex.data(), 8) == "e3069283");
  std::array<char, 7> small{};
  CHECK_THROWS(digest.base64_to(small));
}

TEST_CASE("hex encoding is lowercase") {
  const std::array<std::byte, 4> bytes = {std::byte{0x00}, std::byte{0xAB}, std::byte{0x0f}, std::byte{0xF0}};
  CHECK(s3up::hex_encode(bytes) == "00ab0ff0");
}

TEST_CASE("base64_decode_digest round trips every algorithm's digest") {
  for (auto algorithm :
       {s3up::ChecksumAlgorithm::crc32, s3up::ChecksumAlgorithm::crc32c, s3up::ChecksumAlgorithm::crc64nvme,
        s3up::ChecksumAlgorithm::sha1, s3up::ChecksumAlgorithm::sha256, s3up::ChecksumAlgorithm::md5}) {
    INFO(s3up::algorithm_name(algorithm));
    const auto digest = s3up::compute_checksum(algorithm, "hello world");
    const auto text = digest.base64();
    CHECK(text.size() == s3up::base64_length(algorithm));
    const auto decoded = s3up::base64_decode_digest(text);
    REQUIRE(decoded);
    CHECK(*decoded == digest);
    CHECK(decoded->size() == s3up::digest_size(algorithm));
  }
}

TEST_CASE("base64_decode_digest decodes known text to known bytes") {
  const auto crc = s3up::base64_decode_digest("y/Q5Jg==");
  REQUIRE(crc);
  CHECK(crc->hex() == "cbf43926");
  const auto sha256 = s3up::base64_decode_digest("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
  REQUIRE(sha256);
  CHECK(sha256->hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const auto fooba = s3up::base64_decode_digest("Zm9vYmE=");
  REQUIRE(fooba);
  CHECK(fooba->hex() == "666f6f6261");
}

TEST_CASE("base64_decode_digest rejects malformed text") {
  const std::vector<std::string_view> bad = {
      "",                                                  // empty
      "y/Q5Jg=",                                           // length not a multiple of 4
      "y/Q5Jg",                                            // missing padding
      "y/Q5J===",                                          // too much padding
      "y/Q5Jg=A",                                          // padding in the middle
      "y/Q=Jg==",                                          // padding in the middle
      "====",                                              // only padding
      "y-Q5Jg==",                                          // URL-safe alphabet
      "y_Q5Jg==",                                          // URL-safe alphabet
      "y/Q5 g==",                                          // space
      "y/Q5Jg==\n",                                        // trailing newline
      "y/Q5Jh==",                                          // non-zero bits after the last byte
      "Zm9vYmF=",                                          // non-zero bits after the last byte
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  // 36 bytes: longer than any digest
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",      // 44 chars, no padding: 33 bytes
  };
  for (auto text : bad) {
    INFO("\"" << text << "\"");
    CHECK_FALSE(s3up::base64_decode_digest(text));
  }
  // 43 characters + '=' is exactly 32 bytes: the longest accepted.
  CHECK(s3up::base64_decode_digest("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")->size() == 32);
}

TEST_CASE("ASCII case folding for protocol tokens ignores locale and leaves non-letters alone") {
  CHECK(s3up::ascii_iequals("Content-MD5", "content-md5"));
  CHECK(s3up::ascii_iequals("", ""));
  CHECK_FALSE(s3up::ascii_iequals("chunked", "chunke"));
  CHECK_FALSE(s3up::ascii_iequals("x-amz-date", "x_amz-date"));
  // '@' (0x40) and '`' (0x60) differ by the case bit but are not letters; neither are bytes >= 0x80.
  CHECK_FALSE(s3up::ascii_iequals("@", "`"));
  CHECK_FALSE(s3up::ascii_iequals("\xC4", "\xE4"));
  CHECK(s3up::ascii_lowercase("X-Amz-Checksum-CRC32C: AbZ@[`{\xC4") == "x-amz-checksum-crc32c: abz@[`{\xC4");
}

TEST_CASE("trim_http_whitespace strips spaces and tabs at both ends only") {
  CHECK(s3up::trim_http_whitespace(" \t value with  inner space \t ") == "value with  inner space");
  CHECK(s3up::trim_http_whitespace("\t \t").empty());
  CHECK(s3up::trim_http_whitespace("value\r") == "value\r");  // a line end is not whitespace here
}

TEST_CASE("trim_ascii_whitespace strips every ASCII whitespace at both ends only") {
  CHECK(s3up::trim_ascii_whitespace(" \t\r\n\v\fkey = a b\f\v\n\r\t ") == "key = a b");
  CHECK(s3up::trim_ascii_whitespace(" \t\r\n").empty());
  CHECK(s3up::trim_ascii_whitespace("").empty());
  CHECK(s3up::trim_ascii_whitespace("\xc2\xa0x") == "\xc2\xa0x");  // U+00A0 is not ASCII whitespace
}

TEST_CASE("utf8_sequence_length follows RFC 3629 at the table's edges") {
  // Expected lengths computed with Python's strict UTF-8 decoder (independent of this code): the n in 1..4
  // for which bytes[:n].decode('utf-8') is one character, else 0.
  struct Case {
    std::string_view bytes;
    std::size_t length;
  };
  const Case cases[] = {{"", 0},
                        {"\x41", 1},
                        {"\x7f", 1},
                        {"\xc2\xa9\x78", 2},
                        {"\xc3", 0},      // truncated
                        {"\xc0\x80", 0},  // overlong NUL
                        {"\xc1\xbf", 0},  // overlong
                        {"\xdf\xbf", 2},
                        {"\xe0\x9f\xbf", 0},  // overlong
                        {"\xe0\xa0\x80", 3},
                        {"\xe2\x82\xac", 3},  // the euro sign
                        {"\xed\x9f\xbf", 3},
                        {"\xed\xa0\x80", 0},  // a UTF-16 surrogate
                        {"\xef\xbf\xbf", 3},
                        {"\xe2\x82", 0},          // truncated
                        {"\xf0\x8f\xbf\xbf", 0},  // overlong
                        {"\xf0\x90\x80\x80", 4},
                        {"\xf4\x8f\xbf\xbf", 4},  // U+10FFFF
                        {"\xf4\x90\x80\x80", 0},  // above U+10FFFF
                        {"\xf5\x80\x80\x80", 0},
                        {"\x80", 0},  // a continuation byte first
                        {"\xbf", 0},
                        {"\xff", 0},
                        {"\xf0\x9f\x98\x80", 4},  // an emoji
                        {"\xf0\x9f\x98", 0},      // truncated
                        {"\xe2\x28\xa1", 0},      // a second byte that is not a continuation
                        {"\xf0\x9f\x28\x80", 0}};
  for (const Case& c : cases) {
    INFO("case " << s3up::hex_encode(as_bytes(c.bytes)));
    CHECK(s3up::utf8_sequence_length(c.bytes) == c.length);
  }
}
