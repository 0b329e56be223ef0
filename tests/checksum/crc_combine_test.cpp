// crc_combine_test.cpp: crc32_combine, crc32c_combine, crc64nvme_combine and combine_crc against the
// reference §6.4 split vectors, direct CRCs of random splits, and large lengths computed independently.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "s3up/checksum.h"

using s3up::ChecksumAlgorithm;
using s3up::Digest;

namespace {

Digest decode(std::string_view base64) {
  auto digest = s3up::base64_decode_digest(base64);
  REQUIRE(digest);
  return *digest;
}

}  // namespace

TEST_CASE("combining the parts of 123456789 gives its CRC (reference 6.4)") {
  // Part 1 "1234", part 2 "56789": the §6.4 part values, and the whole object's CRC (§5.1 check values).
  CHECK(s3up::crc32_combine(0x9BE3E0A3u, 0x131DA070u, 5) == 0xCBF43926u);
  CHECK(s3up::crc32c_combine(0xF63AF4EEu, 0x83B565D8u, 5) == 0xE3069283u);
  // §6.4 KfXb5+L/cdQ= and +H3Ihxds5mc= decoded (base64 -> big-endian integer).
  CHECK(s3up::crc64nvme_combine(0x29F5DBE7E2FF71D4ull, 0xF87DC887176CE667ull, 5) == 0xAE8B14860A799888ull);

  struct Vector {
    ChecksumAlgorithm algorithm;
    std::string_view part1, part2, whole;
  };
  for (const Vector& v :
       {Vector{ChecksumAlgorithm::crc32, "m+Pgow==", "Ex2gcA==", "y/Q5Jg=="},
        Vector{ChecksumAlgorithm::crc32c, "9jr07g==", "g7Vl2A==", "4waSgw=="},
        Vector{ChecksumAlgorithm::crc64nvme, "KfXb5+L/cdQ=", "+H3Ihxds5mc=", "rosUhgp5mIg="}}) {
    INFO(s3up::algorithm_name(v.algorithm));
    auto combined = s3up::combine_crc(v.algorithm, decode(v.part1), decode(v.part2), 5);
    REQUIRE(combined);
    CHECK(combined->base64() == v.whole);
  }
}

TEST_CASE("combine_crc refuses message digests and digests of the wrong size") {
  Digest crc32 = decode("m+Pgow==");
  Digest crc64 = decode("KfXb5+L/cdQ=");
  Digest sha1 = decode("cRDtpNCeBiql5KOQsKVyrA0sAiA=");
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::sha1, sha1, sha1, 5));
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::sha256, sha1, sha1, 5));
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::md5, crc32, crc32, 5));
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::crc32, crc64, crc32, 5));
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::crc32c, crc32, crc64, 5));
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::crc64nvme, crc32, crc32, 5));
  CHECK_FALSE(s3up::combine_crc(ChecksumAlgorithm::crc32, Digest(), crc32, 5));
}

TEST_CASE("combining with an empty part changes nothing") {
  // The CRC of nothing is 0 (post-xorout), and x^0 = 1: combine(a, 0, 0) == a.
  CHECK(s3up::crc32_combine(0xCBF43926u, 0, 0) == 0xCBF43926u);
  CHECK(s3up::crc32c_combine(0xE3069283u, 0, 0) == 0xE3069283u);
  CHECK(s3up::crc64nvme_combine(0xAE8B14860A799888ull, 0, 0) == 0xAE8B14860A799888ull);
  // An empty first part: its CRC is 0, and the result is the second part's CRC whatever the length.
  CHECK(s3up::crc32_combine(0, 0xCBF43926u, 9) == 0xCBF43926u);
  CHECK(s3up::crc32c_combine(0, 0xE3069283u, 9) == 0xE3069283u);
  CHECK(s3up::crc64nvme_combine(0, 0xAE8B14860A799888ull, 9) == 0xAE8B14860A799888ull);
}

TEST_CASE("combining random splits equals the direct CRC of the whole") {
  std::mt19937_64 random(0x5EED2026);  // fixed seed: the same splits on every run
  std::vector<std::byte> data(70000);
  for (auto& b : data) b = static_cast<std::byte>(random());
  const std::span<const std::byte> all(data);
  const std::uint32_t whole32 = s3up::crc32_update(0, all);
  const std::uint32_t whole32c = s3up::crc32c_update(0, all);
  const std::uint64_t whole64 = s3up::crc64nvme_update(0, all);

  for (int round = 0; round < 200; ++round) {
    // Two or more cut points, including 0 and the end sometimes: empty parts must combine too.
    std::vector<std::size_t> cuts{0, data.size()};
    int extra = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < extra; ++i) cuts.push_back(random() % (data.size() + 1));
    std::sort(cuts.begin(), cuts.end());
    std::uint32_t c32 = 0, c32c = 0;
    std::uint64_t c64 = 0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      auto part = all.subspan(cuts[i], cuts[i + 1] - cuts[i]);
      c32 = s3up::crc32_combine(c32, s3up::crc32_update(0, part), part.size());
      c32c = s3up::crc32c_combine(c32c, s3up::crc32c_update(0, part), part.size());
      c64 = s3up::crc64nvme_combine(c64, s3up::crc64nvme_update(0, part), part.size());
    }
    INFO("round " << round);
    REQUIRE(c32 == whole32);
    REQUIRE(c32c == whole32c);
    REQUIRE(c64 == whole64);
  }

  // The Digest form on one split, against the checksum objects' own output.
  auto a = all.first(12345), b = all.subspan(12345);
  for (ChecksumAlgorithm algorithm :
       {ChecksumAlgorithm::crc32, ChecksumAlgorithm::crc32c, ChecksumAlgorithm::crc64nvme}) {
    auto combined = s3up::combine_crc(algorithm, s3up::compute_checksum(algorithm, a),
                                      s3up::compute_checksum(algorithm, b), b.size());
    REQUIRE(combined);
    CHECK(*combined == s3up::compute_checksum(algorithm, all));
  }
}

TEST_CASE("combining over lengths beyond 4 GiB") {
  // Expected values from an independent model in Python (plain GF(2) polynomial remainders in the normal,
  // non-reflected domain, with bit reversal for refin/refout, and x^(8n) mod P by square-and-multiply):
  //   crc(A || 0^n) = rev((rev8(A)(x) x^W x^(8n) + ones(x) x^(8(|A|+n))) mod P) ^ ones
  // That model reproduces the §5.1 check values and 32-zero-byte values, and for CRC32 it was confirmed by
  // running zlib.crc32 directly over the 5 GiB + 3 zero bytes (0x5335F577 and 0x6794B128 below).
  struct Large {
    std::uint64_t n;  // zero bytes appended to "123456789"
    std::uint32_t zeros32, whole32, zeros32c, whole32c;
    std::uint64_t zeros64, whole64;
  };
  const Large cases[] = {
      {5ULL * 1024 * 1024 * 1024 + 3, 0x5335F577u, 0x6794B128u, 0x561C92C5u, 0xFF949C96u,
       0x64D628EC6ECFD8E0ull, 0xC78C4B183A21F279ull},
      {(1ULL << 40) + 12345, 0x758C8EC9u, 0x273CB812u, 0x38B5B5A8u, 0xA76ED4C8u, 0x4D58B4714E1E55BAull,
       0xA9594A81BD32458Bull},
      // 2^64 - 1 uses every entry of the x^(2^k) table. x^(8 (2^64 - 1)) is 1 modulo the CRC32 and CRC64NVME
      // polynomials (their orders divide 2^32 - 1 and 2^64 - 1), so those CRCs of zeros come out 0.
      {~0ULL, 0x00000000u, 0xCBF43926u, 0x6064A37Au, 0xC48FC8D7u, 0x0ull, 0xAE8B14860A799888ull},
  };
  for (const Large& c : cases) {
    INFO("n = " << c.n);
    CHECK(s3up::crc32_combine(0xCBF43926u, c.zeros32, c.n) == c.whole32);
    CHECK(s3up::crc32c_combine(0xE3069283u, c.zeros32c, c.n) == c.whole32c);
    CHECK(s3up::crc64nvme_combine(0xAE8B14860A799888ull, c.zeros64, c.n) == c.whole64);
  }
}

TEST_CASE("combining is associative for lengths of any size") {
  // crc(A || B || C) from ((A B) C) and (A (B C)) must agree; lengths up to 2^62 so that sums stay in range.
  std::mt19937_64 random(20261130);
  for (int round = 0; round < 100; ++round) {
    std::uint64_t lb = random() >> 2, lc = random() >> 2;
    if (round % 4 == 0) lb = random() % 100;  // mix small and huge lengths
    std::uint32_t a32 = static_cast<std::uint32_t>(random()), b32 = static_cast<std::uint32_t>(random()),
                  c32 = static_cast<std::uint32_t>(random());
    std::uint64_t a64 = random(), b64 = random(), c64 = random();
    INFO("round " << round << " lb " << lb << " lc " << lc);
    CHECK(s3up::crc32_combine(s3up::crc32_combine(a32, b32, lb), c32, lc) ==
          s3up::crc32_combine(a32, s3up::crc32_combine(b32, c32, lc), lb + lc));
    CHECK(s3up::crc32c_combine(s3up::crc32c_combine(a32, b32, lb), c32, lc) ==
          s3up::crc32c_combine(a32, s3up::crc32c_combine(b32, c32, lc), lb + lc));
    CHECK(s3up::crc64nvme_combine(s3up::crc64nvme_combine(a64, b64, lb), c64, lc) ==
          s3up::crc64nvme_combine(a64, s3up::crc64nvme_combine(b64, c64, lc), lb + lc));
  }
}
