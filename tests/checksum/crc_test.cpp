// crc_test.cpp: CRC32, CRC32C and CRC64NVME against the published known answers (reference §5.1, §5.2)
// and values computed with an independent bitwise Python CRC (see the comments at each constant).
#include <catch2/catch.hpp>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "s3up/checksum.h"

using s3up::ChecksumAlgorithm;

namespace {

std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

std::vector<std::byte> zeros32() {
  return std::vector<std::byte>(32, std::byte{0});
}

std::vector<std::byte> counting32() {
  std::vector<std::byte> bytes(32);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i);
  return bytes;
}

// 1000 bytes of (i*7+3) & 0xff: long enough to exercise the 8-byte main loop and the byte tail.
std::vector<std::byte> pattern1000() {
  std::vector<std::byte> bytes(1000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte((i * 7 + 3) & 0xff);
  return bytes;
}

}  // namespace

TEST_CASE("crc check values of \"123456789\" (reference 5.1)") {
  CHECK(s3up::crc32_update(0, as_bytes("123456789")) == 0xCBF43926u);
  CHECK(s3up::crc32c_update(0, as_bytes("123456789")) == 0xE3069283u);
  CHECK(s3up::crc64nvme_update(0, as_bytes("123456789")) == 0xAE8B14860A799888ull);
}

TEST_CASE("crc of 32 zero bytes and of bytes 0..31 (reference 5.1, aws-checksums tests)") {
  const auto zeros = zeros32();
  const auto counting = counting32();
  CHECK(s3up::crc32_update(0, zeros) == 0x190A55ADu);
  CHECK(s3up::crc32c_update(0, zeros) == 0x8A9136AAu);
  CHECK(s3up::crc64nvme_update(0, zeros) == 0xCF3473434D4ECF3Bull);
  CHECK(s3up::crc32_update(0, counting) == 0x91267E8Au);
  CHECK(s3up::crc32c_update(0, counting) == 0x46DD794Eu);
  CHECK(s3up::crc64nvme_update(0, counting) == 0xB9D9D4A8492CBD7Full);
}

TEST_CASE("crc of the empty input is zero and update with nothing keeps the value") {
  CHECK(s3up::crc32_update(0, {}) == 0u);
  CHECK(s3up::crc32c_update(0, {}) == 0u);
  CHECK(s3up::crc64nvme_update(0, {}) == 0u);
  CHECK(s3up::crc32c_update(0xE3069283u, {}) == 0xE3069283u);
  CHECK(s3up::crc64nvme_update(0xAE8B14860A799888ull, {}) == 0xAE8B14860A799888ull);
}

TEST_CASE("crc S3 text form: big-endian base64 (reference 5.2)") {
  struct Vector {
    ChecksumAlgorithm algorithm;
    std::string_view input;
    std::string_view base64;
  };
  const std::vector<Vector> vectors = {
      {ChecksumAlgorithm::crc32, "123456789", "y/Q5Jg=="},
      {ChecksumAlgorithm::crc32c, "123456789", "4waSgw=="},
      {ChecksumAlgorithm::crc64nvme, "123456789", "rosUhgp5mIg="},
      {ChecksumAlgorithm::crc32, "", "AAAAAA=="},
      {ChecksumAlgorithm::crc32c, "", "AAAAAA=="},
      {ChecksumAlgorithm::crc64nvme, "", "AAAAAAAAAAA="},
      {ChecksumAlgorithm::crc32, "hello\n", "NjowIA=="},
      {ChecksumAlgorithm::crc64nvme, "hello", "M3eFcAZSQlc="},
      {ChecksumAlgorithm::crc32c, "a", "wdBDMA=="},
      {ChecksumAlgorithm::crc32, "abc", "NSRBwg=="},
      {ChecksumAlgorithm::crc32c, "abc", "Nks/tw=="},
      {ChecksumAlgorithm::crc64nvme, "abc", "BeXKuz/B+us="},
      {ChecksumAlgorithm::crc32, "hello world", "DUoRhQ=="},
      {ChecksumAlgorithm::crc32c, "hello world", "yZRlqg=="},
      {ChecksumAlgorithm::crc64nvme, "hello world", "jSnVw/bqjr4="},
  };
  for (const auto& v : vectors) {
    INFO(s3up::algorithm_name(v.algorithm) << " of \"" << v.input << "\"");
    CHECK(s3up::compute_checksum(v.algorithm, v.input).base64() == v.base64);
  }
}

TEST_CASE("crc digests are big-endian bytes of the value") {
  s3up::Crc64Nvme crc64;
  crc64.update(std::string_view("123456789"));
  CHECK(crc64.value() == 0xAE8B14860A799888ull);
  CHECK(crc64.finish().hex() == "ae8b14860a799888");
  s3up::Crc32c crc32c;
  crc32c.update(std::string_view("123456789"));
  CHECK(crc32c.value() == 0xE3069283u);
  CHECK(crc32c.finish().hex() == "e3069283");
  s3up::Crc32 crc32;
  crc32.update(std::string_view("123456789"));
  CHECK(crc32.value() == 0xCBF43926u);
  CHECK(crc32.finish().size() == 4);
}

TEST_CASE("crc of a long input (66560 x 'a', reference 4.4 trailer)") {
  const std::string body(66560, 'a');
  CHECK(s3up::compute_checksum(ChecksumAlgorithm::crc32c, body).base64() == "sOO8/Q==");
  // Computed with Python: zlib.crc32 and a bitwise reflected CRC-64/NVME, big-endian, base64.
  CHECK(s3up::compute_checksum(ChecksumAlgorithm::crc32, body).base64() == "sK4Y7A==");
  CHECK(s3up::compute_checksum(ChecksumAlgorithm::crc64nvme, body).base64() == "pRf+emrnL+A=");
}

TEST_CASE("crc kernels chain: feeding the result back in equals one pass") {
  // Whole-input values computed with Python (zlib.crc32; bitwise reflected CRC32C and CRC64NVME).
  const auto data = pattern1000();
  const std::span<const std::byte> all(data);
  CHECK(s3up::crc32_update(0, all) == 0x17BC2A46u);
  CHECK(s3up::crc32c_update(0, all) == 0xDD2EDFF7u);
  CHECK(s3up::crc64nvme_update(0, all) == 0x387E868BD14DEBEDull);

  std::mt19937 rng(12345);  // fixed seed: reproducible splits
  for (int round = 0; round < 50; ++round) {
    std::uint32_t c32 = 0;
    std::uint32_t c32c = 0;
    std::uint64_t c64 = 0;
    std::size_t at = 0;
    while (at < data.size()) {
      const std::size_t n = std::min<std::size_t>(rng() % 40, data.size() - at);
      const auto part = all.subspan(at, n);
      c32 = s3up::crc32_update(c32, part);
      c32c = s3up::crc32c_update(c32c, part);
      c64 = s3up::crc64nvme_update(c64, part);
      at += n;
    }
    CHECK(c32 == 0x17BC2A46u);
    CHECK(c32c == 0xDD2EDFF7u);
    CHECK(c64 == 0x387E868BD14DEBEDull);
  }
}

TEST_CASE("crc checksum objects: random split updates equal the one-shot value, reset reuses") {
  const auto data = pattern1000();
  const std::span<const std::byte> all(data);
  const std::array<std::pair<ChecksumAlgorithm, std::string_view>, 3> expected = {{
      {ChecksumAlgorithm::crc32, "17bc2a46"},
      {ChecksumAlgorithm::crc32c, "dd2edff7"},
      {ChecksumAlgorithm::crc64nvme, "387e868bd14debed"},
  }};
  std::mt19937 rng(777);
  for (const auto& [algorithm, hex] : expected) {
    INFO(s3up::algorithm_name(algorithm));
    auto checksum = s3up::make_checksum(algorithm);
    CHECK(checksum->algorithm() == algorithm);
    for (int round = 0; round < 10; ++round) {
      checksum->reset();
      std::size_t at = 0;
      while (at < data.size()) {
        const std::size_t n = std::min<std::size_t>(rng() % 100, data.size() - at);
        checksum->update(all.subspan(at, n));
        at += n;
      }
      CHECK(checksum->finish().hex() == hex);
    }
    checksum->reset();
    CHECK(checksum->finish().hex() == std::string(hex.size(), '0'));  // reset returns to the empty CRC
  }
}
