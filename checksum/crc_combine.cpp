// crc_combine.cpp: the CRC of a concatenation from the CRCs of its pieces (reference §6.3), zlib's
// multmodp/x2nmodp over GF(2) polynomials modulo P, one generic version for CRC32, CRC32C and CRC64NVME.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "crc_dispatch.h"
#include "s3up/checksum.h"

namespace s3up {

namespace {

// Polynomials are held reflected, as the CRC registers are: bit W-1 is x^0 and bit 0 is x^(W-1).
template <typename Crc>
constexpr Crc reflected_one = Crc{1} << (8 * sizeof(Crc) - 1);

// a(x) * b(x) mod P(x), both reflected. Shift-and-add over a's terms from x^0 up, b multiplied by x at each
// step; stops after a's last term (zlib's early exit), and at once when a is zero.
template <typename Crc>
constexpr Crc multmodp(Crc a, Crc b, Crc reflected_poly) {
  Crc product = 0;
  for (Crc term = reflected_one<Crc>; term != 0 && a != 0; term >>= 1) {
    if (a & term) {
      product ^= b;
      a ^= term;
    }
    b = (b & 1) ? (b >> 1) ^ reflected_poly : b >> 1;
  }
  return product;
}

// x^(2^k) mod P for k = 0..66: combining multiplies by x^(8 n) for an n of up to 64 bits, which walks
// entries 3 (x^8, one byte) to 3 + 63. No `k & 31` wrap as zlib does: that is only valid for CRC32's period.
inline constexpr std::size_t x2n_entries = 3 + 64;

template <typename Crc>
constexpr std::array<Crc, x2n_entries> make_x2n_table(Crc reflected_poly) {
  std::array<Crc, x2n_entries> table{};
  table[0] = reflected_one<Crc> >> 1;  // x^1
  for (std::size_t k = 1; k < x2n_entries; ++k)
    table[k] = multmodp(table[k - 1], table[k - 1], reflected_poly);
  return table;
}

constexpr auto crc32_x2n = make_x2n_table(detail::crc32_reflected_poly);
constexpr auto crc32c_x2n = make_x2n_table(detail::crc32c_reflected_poly);
constexpr auto crc64nvme_x2n = make_x2n_table(detail::crc64nvme_reflected_poly);

// Entries that follow from the definition: x^8 is a plain shift, and x^W mod P is P without its x^W term,
// the reflected polynomial itself (entry 5 for W = 32, 6 for W = 64; zlib's x2n_table[5] is 0xedb88320).
static_assert(crc32_x2n[3] == (reflected_one<std::uint32_t> >> 8));
static_assert(crc32_x2n[5] == detail::crc32_reflected_poly);
static_assert(crc32c_x2n[5] == detail::crc32c_reflected_poly);
static_assert(crc64nvme_x2n[6] == detail::crc64nvme_reflected_poly);

// x^(8 length) mod P: the factor that moves a CRC past `length` bytes (zlib's x2nmodp(length, 3)).
template <typename Crc>
constexpr Crc x8nmodp(std::uint64_t length, const std::array<Crc, x2n_entries>& x2n, Crc reflected_poly) {
  Crc power = reflected_one<Crc>;  // x^0
  for (std::size_t k = 3; length != 0; length >>= 1, ++k) {
    if (length & 1) power = multmodp(x2n[k], power, reflected_poly);
  }
  return power;
}

// crc(A || B) = crc(A) * x^(8 |B|) mod P  xor  crc(B). Holds on the finished values because init equals
// xorout (all ones) for every S3 CRC: the two all-ones terms cancel.
template <typename Crc>
constexpr Crc combine(Crc crc_a, Crc crc_b, std::uint64_t length_b, const std::array<Crc, x2n_entries>& x2n,
                      Crc reflected_poly) {
  return multmodp(x8nmodp(length_b, x2n, reflected_poly), crc_a, reflected_poly) ^ crc_b;
}

template <typename Crc>
Crc from_big_endian(std::span<const std::byte> bytes) {
  Crc value = 0;
  for (std::byte b : bytes) value = static_cast<Crc>((value << 8) | static_cast<Crc>(b));
  return value;
}

template <typename Crc>
Digest to_big_endian(Crc value) {
  std::array<std::byte, sizeof(Crc)> bytes{};
  for (std::size_t i = 0; i < sizeof(Crc); ++i)
    bytes[i] = static_cast<std::byte>(value >> (8 * (sizeof(Crc) - 1 - i)));
  return Digest(bytes);
}

template <typename Crc>
std::optional<Digest> combine_digests(const Digest& a, const Digest& b, std::uint64_t length_b,
                                      Crc (*combine_values)(Crc, Crc, std::uint64_t)) {
  if (a.size() != sizeof(Crc) || b.size() != sizeof(Crc)) return std::nullopt;
  return to_big_endian(
      combine_values(from_big_endian<Crc>(a.bytes()), from_big_endian<Crc>(b.bytes()), length_b));
}

}  // namespace

std::uint32_t crc32_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::uint64_t length_b) {
  return combine(crc_a, crc_b, length_b, crc32_x2n, detail::crc32_reflected_poly);
}

std::uint32_t crc32c_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::uint64_t length_b) {
  return combine(crc_a, crc_b, length_b, crc32c_x2n, detail::crc32c_reflected_poly);
}

std::uint64_t crc64nvme_combine(std::uint64_t crc_a, std::uint64_t crc_b, std::uint64_t length_b) {
  return combine(crc_a, crc_b, length_b, crc64nvme_x2n, detail::crc64nvme_reflected_poly);
}

std::optional<Digest> combine_crc(ChecksumAlgorithm algorithm, const Digest& a, const Digest& b,
                                  std::uint64_t length_b) {
  switch (algorithm) {
    case ChecksumAlgorithm::crc32:
      return combine_digests<std::uint32_t>(a, b, length_b, crc32_combine);
    case ChecksumAlgorithm::crc32c:
      return combine_digests<std::uint32_t>(a, b, length_b, crc32c_combine);
    case ChecksumAlgorithm::crc64nvme:
      return combine_digests<std::uint64_t>(a, b, length_b, crc64nvme_combine);
    case ChecksumAlgorithm::sha1:
    case ChecksumAlgorithm::sha256:
    case ChecksumAlgorithm::md5:
      break;
  }
  return std::nullopt;  // message digests do not compose
}

}  // namespace s3up
