// crc_kernels_test.cpp: every compiled-in CRC kernel (portable, PCLMULQDQ, AVX-512 VPCLMULQDQ) forced
// explicitly: published check values, a Python-computed long vector, and a differential test against the
// portable reference over random lengths, alignments and chained split points. Also the run-time choice.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checksum/crc_dispatch.h"
#include "s3up/checksum.h"

using s3up::detail::CrcKernelSet;

namespace {

std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

// The kernel sets the running CPU supports; says which ones it skips, so a weaker CI machine is visible.
std::vector<const CrcKernelSet*> supported_kernel_sets() {
  std::vector<const CrcKernelSet*> sets;
  for (const CrcKernelSet& set : s3up::detail::crc_kernel_sets()) {
    if (set.supported())
      sets.push_back(&set);
    else
      WARN("CRC kernel " << set.name << " not supported by this CPU: not tested");
  }
  return sets;
}

std::vector<std::byte> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> bytes(n);
  for (auto& b : bytes) b = std::byte(rng() & 0xff);
  return bytes;
}

// Reference values of one input, from the portable kernels (crc32: zlib).
struct Reference {
  std::uint32_t crc32;
  std::uint32_t crc32c;
  std::uint64_t crc64nvme;
};

Reference portable_reference(std::span<const std::byte> data) {
  return {s3up::detail::crc32_portable(0, data), s3up::detail::crc32c_portable(0, data),
          s3up::detail::crc64nvme_portable(0, data)};
}

// Feeds data to one kernel set in parts cut at the given (sorted) split points.
Reference chained(const CrcKernelSet& set, std::span<const std::byte> data,
                  const std::vector<std::size_t>& cuts) {
  Reference r{0, 0, 0};
  std::size_t from = 0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    const std::size_t to = i < cuts.size() ? cuts[i] : data.size();
    const auto part = data.subspan(from, to - from);
    r.crc32 = set.crc32(r.crc32, part);
    r.crc32c = set.crc32c(r.crc32c, part);
    r.crc64nvme = set.crc64nvme(r.crc64nvme, part);
    from = to;
  }
  return r;
}

}  // namespace

TEST_CASE("crc kernels: the portable set is listed first and always supported") {
  const auto sets = s3up::detail::crc_kernel_sets();
  REQUIRE(!sets.empty());
  CHECK(sets.front().name == "portable");
  CHECK(sets.front().supported());
}

TEST_CASE("crc kernels: every kernel gives the published check values") {
  for (const CrcKernelSet* set : supported_kernel_sets()) {
    INFO("kernel " << set->name);
    // Reference 5.1: the CRC catalogue check values of "123456789".
    CHECK(set->crc32(0, as_bytes("123456789")) == 0xCBF43926u);
    CHECK(set->crc32c(0, as_bytes("123456789")) == 0xE3069283u);
    CHECK(set->crc64nvme(0, as_bytes("123456789")) == 0xAE8B14860A799888ull);
    // Reference 5.1 (aws-checksums tests): 32 zero bytes, long enough to reach the folding path.
    const std::vector<std::byte> zeros(32, std::byte{0});
    CHECK(set->crc32(0, zeros) == 0x190A55ADu);
    CHECK(set->crc32c(0, zeros) == 0x8A9136AAu);
    CHECK(set->crc64nvme(0, zeros) == 0xCF3473434D4ECF3Bull);
    CHECK(set->crc32(0, {}) == 0u);
    CHECK(set->crc64nvme(0x1234, {}) == 0x1234u);
    // Reference 4.4: the trailer example, CRC32C of 66560 x 'a' is "sOO8/Q==" = 0xB0E3BCFD.
    const std::string a(66560, 'a');
    CHECK(set->crc32c(0, as_bytes(a)) == 0xB0E3BCFDu);
  }
}

TEST_CASE("crc kernels: a 3 MiB input against Python values") {
  // byte i = ((i*i + (i >> 7)) * 37 + 11) & 0xff for i < 3 MiB + 13. Computed with Python: zlib.crc32, and
  // table-driven reflected CRCs whose tables were built bitwise from 0x82F63B78 and 0x9A6C9329AC4BC9B5.
  std::vector<std::byte> data(3 * 1024 * 1024 + 13);
  for (std::uint64_t i = 0; i < data.size(); ++i) data[i] = std::byte(((i * i + (i >> 7)) * 37 + 11) & 0xff);
  for (const CrcKernelSet* set : supported_kernel_sets()) {
    INFO("kernel " << set->name);
    CHECK(set->crc32(0, data) == 0xE84C2C60u);
    CHECK(set->crc32c(0, data) == 0x262AEF73u);
    CHECK(set->crc64nvme(0, data) == 0xAD5D68DC630EE1D4ull);
  }
}

TEST_CASE("crc kernels: differential against portable, random lengths, alignments and splits") {
  const auto sets = supported_kernel_sets();
  constexpr std::size_t max_length = 70000;
  const auto buffer = random_bytes(max_length + 64, 20240601);
  std::mt19937_64 rng(4242);  // fixed seed: a failure reproduces
  int cases = 0;
  for (int round = 0; round < 3000; ++round) {
    // Half the lengths are short, where the kernels switch between table, single-lane and wide paths.
    const std::size_t length = round % 2 ? rng() % (max_length + 1) : rng() % 1100;
    const std::size_t offset = rng() % 64;
    const auto data = std::span<const std::byte>(buffer).subspan(offset, length);
    const Reference expected = portable_reference(data);
    std::vector<std::size_t> cuts(rng() % 4);  // zero to three split points
    for (auto& cut : cuts) cut = length ? rng() % (length + 1) : 0;
    std::sort(cuts.begin(), cuts.end());
    for (const CrcKernelSet* set : sets) {
      if (set->name == "portable") continue;
      INFO("kernel " << set->name << ", length " << length << ", offset " << offset << ", " << cuts.size()
                     << " splits");
      const Reference whole = chained(*set, data, {});
      const Reference split = chained(*set, data, cuts);
      // Plain REQUIREs would stop at the first case; CHECK each but count them into one summary.
      CHECK(whole.crc32 == expected.crc32);
      CHECK(whole.crc32c == expected.crc32c);
      CHECK(whole.crc64nvme == expected.crc64nvme);
      CHECK(split.crc32 == expected.crc32);
      CHECK(split.crc32c == expected.crc32c);
      CHECK(split.crc64nvme == expected.crc64nvme);
      ++cases;
    }
  }
  if (sets.size() > 1) CHECK(cases >= 3000);
}

TEST_CASE("crc kernels: differential against portable on several MiB, chained from a non-zero CRC") {
  const auto buffer = random_bytes(5 * 1024 * 1024 + 64, 99);
  std::mt19937_64 rng(7);
  for (int round = 0; round < 3; ++round) {
    const std::size_t length = 2 * 1024 * 1024 + rng() % (3 * 1024 * 1024);
    const std::size_t offset = rng() % 64;
    const auto data = std::span<const std::byte>(buffer).subspan(offset, length);
    const auto head = data.first(rng() % 5000);  // chained from its CRC, so the start value is non-zero
    const auto rest = data.subspan(head.size());
    const Reference expected = portable_reference(data);
    for (const CrcKernelSet* set : supported_kernel_sets()) {
      INFO("kernel " << set->name << ", length " << length << ", offset " << offset);
      CHECK(set->crc32(set->crc32(0, head), rest) == expected.crc32);
      CHECK(set->crc32c(set->crc32c(0, head), rest) == expected.crc32c);
      CHECK(set->crc64nvme(set->crc64nvme(0, head), rest) == expected.crc64nvme);
    }
  }
}

TEST_CASE("crc kernels: the selected set is the last supported one and backs the public functions") {
  const auto sets = supported_kernel_sets();
  const CrcKernelSet& selected = s3up::detail::selected_crc_kernel_set();
  CHECK(selected.supported());
  CHECK(selected.name == sets.back()->name);
  INFO("selected kernel " << selected.name);
  // The public functions are the dispatched ones: same results as the selected set, and the check values.
  const auto data = random_bytes(100000, 5);
  CHECK(s3up::crc32_update(0, data) == selected.crc32(0, data));
  CHECK(s3up::crc32c_update(0, data) == selected.crc32c(0, data));
  CHECK(s3up::crc64nvme_update(0, data) == selected.crc64nvme(0, data));
  CHECK(s3up::crc32_update(0, as_bytes("123456789")) == 0xCBF43926u);
  CHECK(s3up::crc32c_update(0, as_bytes("123456789")) == 0xE3069283u);
  CHECK(s3up::crc64nvme_update(0, as_bytes("123456789")) == 0xAE8B14860A799888ull);
}
