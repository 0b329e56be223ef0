// crc_clmul_x86.cpp: the x86-64 carry-less-multiply CRC kernels (Intel, "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ", reflected variant), one generic body for CRC32, CRC32C and CRC64NVME.
//
// Only the functions below carry target attributes, so the rest of the project stays baseline x86-64;
// crc_kernels.cpp calls them only after checking the CPU. The layout and the constants are explained in
// crc_clmul_constants.h.
#if defined(__x86_64__)

#include <immintrin.h>

#include "crc_clmul_constants.h"
#include "crc_dispatch.h"

namespace s3up::detail {
namespace {

constexpr ClmulConstants crc32_constants = make_clmul_constants(crc32_reflected_poly, 32);
constexpr ClmulConstants crc32c_constants = make_clmul_constants(crc32c_reflected_poly, 32);
constexpr ClmulConstants crc64nvme_constants = make_clmul_constants(crc64nvme_reflected_poly, 64);

// Below this many bytes the lane setup and the final reduction cost more than table lookups save.
constexpr std::size_t min_clmul_bytes = 32;

// Where a kernel stopped: the folded 128-bit lane and the input not yet consumed.
struct FoldProgress {
  __m128i lane;
  const std::byte* p;
  std::size_t n;
};

__attribute__((target("pclmul"))) inline __m128i load128(const std::byte* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

__attribute__((target("pclmul"))) inline __m128i fold_constants(const std::uint64_t (&k)[2]) {
  return _mm_set_epi64x(static_cast<long long>(k[1]), static_cast<long long>(k[0]));
}

// lane * x^D (mod P) as a 128-bit lane, D being the distance the constants k were made for, plus data.
__attribute__((target("pclmul"))) inline __m128i fold128(__m128i lane, __m128i k, __m128i data) {
  const __m128i high_half = _mm_clmulepi64_si128(lane, k, 0x00);
  const __m128i low_half = _mm_clmulepi64_si128(lane, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(high_half, low_half), data);
}

__attribute__((target("pclmul"))) inline std::uint64_t clmul_low(std::uint64_t a, std::uint64_t b) {
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_clmulepi64_si128(
      _mm_cvtsi64_si128(static_cast<long long>(a)), _mm_cvtsi64_si128(static_cast<long long>(b)), 0x00)));
}

__attribute__((target("pclmul"))) inline std::uint64_t clmul_high(std::uint64_t a, std::uint64_t b) {
  const __m128i product = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<long long>(a)),
                                               _mm_cvtsi64_si128(static_cast<long long>(b)), 0x00);
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(product, product)));
}

// Folds the remaining whole 16-byte blocks into the lane, then reduces the lane A to the CRC register
// A * x^n mod P (reflected). Step 1: A x^n == H (x^(64+n) mod P) + L x^n, a polynomial T of degree < 64+n.
// Step 2, Barrett: with T = T1 x^n + T0, q = floor(T1 x^n / P) = T1 + floor(T1 mu' / x^64), and the
// remainder is T0 + (q P' mod x^n).
__attribute__((target("pclmul"))) std::uint64_t finish_lane(const ClmulConstants& k, FoldProgress& at) {
  const __m128i k128 = fold_constants(k.fold_128);
  while (at.n >= 16) {
    at.lane = fold128(at.lane, k128, load128(at.p));
    at.p += 16;
    at.n -= 16;
  }
  const __m128i reduce = _mm_cvtsi64_si128(static_cast<long long>(k.reduce_fold));
  const __m128i t = _mm_xor_si128(_mm_clmulepi64_si128(at.lane, reduce, 0x00), _mm_srli_si128(at.lane, 8));
  const auto t1 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(t));
  const auto t0 = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(t, t)));
  // floor(T1 mu' / x^64) is the product's terms of degree >= 64: its low qword, one bit short.
  const std::uint64_t q = t1 ^ (clmul_low(t1, k.barrett_mu) << 1);
  // q P' mod x^n: the product's n lowest-degree terms sit at bits 127-n .. 126.
  const std::uint64_t qp_low = clmul_low(q, k.barrett_poly);
  const std::uint64_t qp_high = clmul_high(q, k.barrett_poly);
  const std::uint64_t qp_mod = k.width == 64 ? (qp_high << 1) | (qp_low >> 63) : qp_high >> (63 - k.width);
  return (t0 ^ qp_mod) & width_mask(k.width);
}

// The running register (pre-xorout) goes into the first message bits, as in any reflected CRC.
__attribute__((target("pclmul"))) inline __m128i first_lane(const std::byte* p, std::uint64_t reg) {
  return _mm_xor_si128(load128(p), _mm_cvtsi64_si128(static_cast<long long>(reg)));
}

__attribute__((target("pclmul"))) std::uint64_t fold_by_8(const ClmulConstants& k, std::uint64_t reg,
                                                          const std::byte* p, std::size_t n) {
  FoldProgress at{first_lane(p, reg), p + 16, n - 16};
  if (at.n >= 112) {
    // Eight independent lanes hide the multiplier latency; each moves 8 * 128 bits per step.
    __m128i lanes[8] = {at.lane};
    for (int i = 1; i < 8; ++i) lanes[i] = load128(at.p + 16 * (i - 1));
    at.p += 112;
    at.n -= 112;
    const __m128i k1024 = fold_constants(k.fold_1024);
    while (at.n >= 128) {
#pragma GCC unroll 8  // keeps the lanes in registers at -O2 too
      for (int i = 0; i < 8; ++i) lanes[i] = fold128(lanes[i], k1024, load128(at.p + 16 * i));
      at.p += 128;
      at.n -= 128;
    }
    const __m128i k128 = fold_constants(k.fold_128);
    at.lane = lanes[0];
    for (int i = 1; i < 8; ++i) at.lane = fold128(at.lane, k128, lanes[i]);
  }
  return finish_lane(k, at);
}

__attribute__((target("pclmul,avx512f,vpclmulqdq"))) inline __m512i fold512(__m512i lane, __m512i k,
                                                                            __m512i data) {
  const __m512i high_half = _mm512_clmulepi64_epi128(lane, k, 0x00);
  const __m512i low_half = _mm512_clmulepi64_epi128(lane, k, 0x11);
  return _mm512_ternarylogic_epi64(high_half, low_half, data, 0x96);  // three-way xor
}

__attribute__((target("pclmul,avx512f,vpclmulqdq"))) inline __m512i load512(const std::byte* p) {
  return _mm512_loadu_si512(p);
}

// The same constant pair in each 128-bit lane. (Not _mm512_broadcast_i32x4: with GCC 12 its undefined
// pass-through operand trips -Wmaybe-uninitialized.)
__attribute__((target("pclmul,avx512f,vpclmulqdq"))) inline __m512i fold_constants512(
    const std::uint64_t (&k)[2]) {
  const auto k0 = static_cast<long long>(k[0]);
  const auto k1 = static_cast<long long>(k[1]);
  return _mm512_set_epi64(k1, k0, k1, k0, k1, k0, k1, k0);
}

__attribute__((target("pclmul,avx512f,vpclmulqdq"))) std::uint64_t fold_avx512(const ClmulConstants& k,
                                                                               std::uint64_t reg,
                                                                               const std::byte* p,
                                                                               std::size_t n) {
  if (n < 256) return fold_by_8(k, reg, p, n);
  // Four 512-bit registers, each four 128-bit lanes: sixteen lanes, each moved 2048 bits per step.
  __m512i z[4];
  z[0] = _mm512_xor_si512(load512(p), _mm512_zextsi128_si512(_mm_cvtsi64_si128(static_cast<long long>(reg))));
  for (int i = 1; i < 4; ++i) z[i] = load512(p + 64 * i);
  p += 256;
  n -= 256;
  const __m512i k2048 = fold_constants512(k.fold_2048);
  while (n >= 256) {
#pragma GCC unroll 4  // keeps the registers out of memory at -O2 too
    for (int i = 0; i < 4; ++i) z[i] = fold512(z[i], k2048, load512(p + 64 * i));
    p += 256;
    n -= 256;
  }
  const __m512i k512 = fold_constants512(k.fold_512);
  __m512i acc = z[0];
  for (int i = 1; i < 4; ++i) acc = fold512(acc, k512, z[i]);
  while (n >= 64) {
    acc = fold512(acc, k512, load512(p));
    p += 64;
    n -= 64;
  }
  // The four lanes of acc are consecutive 16-byte blocks: fold them into one, first to last. (Stored
  // rather than extracted, for the same GCC 12 warning as above.)
  alignas(64) __m128i lanes[4];
  _mm512_store_si512(lanes, acc);
  // Clean upper register halves before the SSE code that follows here and in the caller: GCC 12 emits no
  // vzeroupper for this target-attribute function, and left dirty they slowed every later SSE instruction in
  // the process (OpenSSL's SHA-256 ran at 1.46 instead of 1.70 GB/s after one CRC).
  _mm256_zeroupper();
  const __m128i k128 = fold_constants(k.fold_128);
  FoldProgress at{lanes[0], p, n};
  for (int i = 1; i < 4; ++i) at.lane = fold128(at.lane, k128, lanes[i]);
  return finish_lane(k, at);
}

using FoldKernel = std::uint64_t (*)(const ClmulConstants&, std::uint64_t, const std::byte*, std::size_t);

// The public chaining contract around a folding kernel: undo the xorout, fold the whole 16-byte blocks,
// redo the xorout, and leave the last 0..15 bytes to the portable kernel.
template <typename Crc>
Crc clmul_update(FoldKernel fold, const ClmulConstants& k, Crc (*portable)(Crc, std::span<const std::byte>),
                 Crc crc, std::span<const std::byte> data) {
  if (data.size() < min_clmul_bytes) return portable(crc, data);
  const std::size_t whole = data.size() & ~std::size_t{15};
  const auto reg = fold(k, static_cast<Crc>(~crc), data.data(), whole);
  return portable(static_cast<Crc>(~reg), data.subspan(whole));
}

}  // namespace

bool pclmul_supported() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("pclmul");
}

std::uint32_t crc32_pclmul(std::uint32_t crc, std::span<const std::byte> data) {
  return clmul_update(fold_by_8, crc32_constants, crc32_portable, crc, data);
}
std::uint32_t crc32c_pclmul(std::uint32_t crc, std::span<const std::byte> data) {
  return clmul_update(fold_by_8, crc32c_constants, crc32c_portable, crc, data);
}
std::uint64_t crc64nvme_pclmul(std::uint64_t crc, std::span<const std::byte> data) {
  return clmul_update(fold_by_8, crc64nvme_constants, crc64nvme_portable, crc, data);
}

bool avx512_vpclmul_supported() {
  __builtin_cpu_init();
  // __builtin_cpu_supports also checks that the OS saves the AVX-512 register state (XCR0).
  return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("vpclmulqdq");
}

std::uint32_t crc32_avx512(std::uint32_t crc, std::span<const std::byte> data) {
  return clmul_update(fold_avx512, crc32_constants, crc32_portable, crc, data);
}
std::uint32_t crc32c_avx512(std::uint32_t crc, std::span<const std::byte> data) {
  return clmul_update(fold_avx512, crc32c_constants, crc32c_portable, crc, data);
}
std::uint64_t crc64nvme_avx512(std::uint64_t crc, std::span<const std::byte> data) {
  return clmul_update(fold_avx512, crc64nvme_constants, crc64nvme_portable, crc, data);
}

}  // namespace s3up::detail

#endif  // defined(__x86_64__)
