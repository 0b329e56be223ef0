// crc_slicing.h (private): the portable slicing-by-8 kernel for reflected CRCs, with its lookup tables
// generated at compile time from the reflected polynomial. Used by the CRC32C and CRC64NVME kernels.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace s3up::detail {

// table[0] is the classic byte-at-a-time table; table[k][b] is the CRC of byte b followed by k zero bytes,
// which lets the kernel fold eight input bytes with eight independent lookups.
template <typename Crc>
using SlicingTables = std::array<std::array<Crc, 256>, 8>;

template <typename Crc>
constexpr SlicingTables<Crc> make_slicing_tables(Crc reflected_poly) {
  SlicingTables<Crc> tables{};
  for (unsigned b = 0; b < 256; ++b) {
    Crc crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? (crc >> 1) ^ reflected_poly : crc >> 1;
    tables[0][b] = crc;
  }
  for (std::size_t k = 1; k < 8; ++k) {
    for (unsigned b = 0; b < 256; ++b) {
      const Crc prev = tables[k - 1][b];
      tables[k][b] = (prev >> 8) ^ tables[0][prev & 0xff];
    }
  }
  return tables;
}

// Updates a finished (post-xorout) CRC with data. init = xorout = all ones for every S3 CRC, so undoing
// the xorout restores the running register and chaining needs no separate state.
template <typename Crc>
Crc slicing_by_8_update(const SlicingTables<Crc>& tables, Crc crc, std::span<const std::byte> data) {
  static_assert(sizeof(Crc) <= 8);
  crc = ~crc;
  const std::byte* p = data.data();
  std::size_t n = data.size();
  while (n >= 8) {
    // Assemble little-endian by hand: portable, no alignment or aliasing concerns.
    std::uint64_t word = 0;
    for (int i = 0; i < 8; ++i) word |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    word ^= crc;
    Crc next = 0;
    for (int i = 0; i < 8; ++i) next ^= tables[7 - i][(word >> (8 * i)) & 0xff];
    crc = next;
    p += 8;
    n -= 8;
  }
  for (; n > 0; --n, ++p) crc = (crc >> 8) ^ tables[0][(crc ^ static_cast<Crc>(*p)) & 0xff];
  return ~crc;
}

}  // namespace s3up::detail
