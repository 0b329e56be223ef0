// crc_clmul_constants.h (private): the carry-less-multiply folding and Barrett constants of a reflected CRC
// of width 32 or 64, computed at compile time from its polynomial, for the PCLMULQDQ kernels.
#pragma once

#include <cstdint>

namespace s3up::detail {

// Layout (reflected, as the bytes sit in memory): a 128-bit lane loaded little-endian holds a polynomial
// whose bit m is the coefficient of x^(127-m). Its low qword is the high-degree half H, its high qword
// the low-degree half L. Moving the lane D bits further down the message multiplies it by x^D:
//   (H x^64 + L) x^D  ==  H * (x^(D+64) mod P)  +  L * (x^D mod P)   (mod P).
// A 64x64 carry-less product of reflected operands lands one bit short of the 128-bit layout, so each
// constant stores x * (x^(e-1) mod P) instead of x^e mod P: bit-reversed, that is bitrev64(x^(e-1) mod P).
struct ClmulConstants {
  unsigned width;              // n: 32 or 64
  std::uint64_t fold_128[2];   // {for H, for L}: one lane ahead
  std::uint64_t fold_512[2];   // four lanes (one 512-bit register) ahead
  std::uint64_t fold_1024[2];  // eight lanes ahead: the fold-by-8 SSE loop
  std::uint64_t fold_2048[2];  // sixteen lanes (four 512-bit registers) ahead: the AVX-512 loop
  std::uint64_t reduce_fold;   // 128 -> 64+n bits: bitrev64(x^(63+n) mod P) >> (64-n)
  std::uint64_t barrett_mu;    // bitrev64(floor(x^(64+n) / P) - x^64)
  std::uint64_t barrett_poly;  // bitrev64(P - x^n)
};

constexpr std::uint64_t bit_reverse64(std::uint64_t v) {
  std::uint64_t r = 0;
  for (int i = 0; i < 64; ++i) r |= ((v >> i) & 1) << (63 - i);
  return r;
}

constexpr std::uint64_t width_mask(unsigned width) {
  return width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// x^e mod P in normal (unreflected) form; poly is P - x^n, also normal.
constexpr std::uint64_t x_pow_mod(std::uint64_t e, std::uint64_t poly, unsigned width) {
  std::uint64_t r = 1;
  for (std::uint64_t i = 0; i < e; ++i) {
    const bool carry = (r >> (width - 1)) & 1;  // the x^(n-1) term becomes x^n, which P reduces
    r = (r << 1) & width_mask(width);
    if (carry) r ^= poly;
  }
  return r;
}

// floor(x^(64+n) / P) without its x^64 term, by long division: walk the dividend from x^(64+n) down to
// x^n; `window` holds the remainder's n coefficients below the current degree.
constexpr std::uint64_t barrett_quotient_low(std::uint64_t poly, unsigned width) {
  std::uint64_t quotient = 0;
  bool top = true;  // coefficient of the current degree d; the dividend is the single term x^(64+n)
  std::uint64_t window = 0;
  for (int bit = 64; bit >= 0; --bit) {  // quotient bit (d - n) for d = 64+n .. n
    if (top) {
      if (bit < 64) quotient |= std::uint64_t{1} << bit;
      window ^= poly;
    }
    top = (window >> (width - 1)) & 1;
    window = (window << 1) & width_mask(width);
  }
  return quotient;
}

constexpr ClmulConstants make_clmul_constants(std::uint64_t reflected_poly, unsigned width) {
  const std::uint64_t poly = bit_reverse64(reflected_poly) >> (64 - width);  // normal form, without x^n
  auto fold = [&](std::uint64_t distance, std::uint64_t(&out)[2]) {
    out[0] = bit_reverse64(x_pow_mod(distance + 63, poly, width));
    out[1] = bit_reverse64(x_pow_mod(distance - 1, poly, width));
  };
  ClmulConstants k{};
  k.width = width;
  fold(128, k.fold_128);
  fold(512, k.fold_512);
  fold(1024, k.fold_1024);
  fold(2048, k.fold_2048);
  k.reduce_fold = bit_reverse64(x_pow_mod(63 + width, poly, width)) >> (64 - width);
  k.barrett_mu = bit_reverse64(barrett_quotient_low(poly, width));
  k.barrett_poly = bit_reverse64(poly);
  return k;
}

}  // namespace s3up::detail
