// crc_dispatch.h (private): every CRC kernel this build has (portable, PCLMULQDQ, AVX-512 VPCLMULQDQ) and
// the run-time choice among them. Tests and the benchmark call each kernel explicitly through this table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace s3up::detail {

// The generator polynomials in reflected form (reference §5.1; the normal form in the comments), shared by
// the portable tables and the carry-less-multiply constants.
inline constexpr std::uint32_t crc32_reflected_poly = 0xEDB88320;              // 0x04C11DB7
inline constexpr std::uint32_t crc32c_reflected_poly = 0x82F63B78;             // 0x1EDC6F41
inline constexpr std::uint64_t crc64nvme_reflected_poly = 0x9A6C9329AC4BC9B5;  // 0xAD93D23594C93659

// All kernels share the public chaining contract of crc32_update() and friends (finished CRC in and out).
using Crc32Kernel = std::uint32_t (*)(std::uint32_t crc, std::span<const std::byte> data);
using Crc64Kernel = std::uint64_t (*)(std::uint64_t crc, std::span<const std::byte> data);

struct CrcKernelSet {
  std::string_view name;
  bool (*supported)();  // whether the running CPU (and OS) can execute it
  Crc32Kernel crc32;
  Crc32Kernel crc32c;
  Crc64Kernel crc64nvme;
};

// Every kernel set compiled in, the portable reference first and the fastest last.
std::span<const CrcKernelSet> crc_kernel_sets();
// The fastest supported set, chosen once on first use.
const CrcKernelSet& selected_crc_kernel_set();

// The portable kernels: the reference every accelerated kernel must match bit for bit.
std::uint32_t crc32_portable(std::uint32_t crc, std::span<const std::byte> data);
std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::byte> data);
std::uint64_t crc64nvme_portable(std::uint64_t crc, std::span<const std::byte> data);

#if defined(__x86_64__)
// Folding with 128-bit PCLMULQDQ, eight lanes in flight (crc_clmul_x86.cpp). Needs PCLMULQDQ.
bool pclmul_supported();
std::uint32_t crc32_pclmul(std::uint32_t crc, std::span<const std::byte> data);
std::uint32_t crc32c_pclmul(std::uint32_t crc, std::span<const std::byte> data);
std::uint64_t crc64nvme_pclmul(std::uint64_t crc, std::span<const std::byte> data);

// Folding with 512-bit VPCLMULQDQ, sixteen 128-bit lanes in flight. Needs AVX-512F and VPCLMULQDQ.
bool avx512_vpclmul_supported();
std::uint32_t crc32_avx512(std::uint32_t crc, std::span<const std::byte> data);
std::uint32_t crc32c_avx512(std::uint32_t crc, std::span<const std::byte> data);
std::uint64_t crc64nvme_avx512(std::uint64_t crc, std::span<const std::byte> data);
#endif

}  // namespace s3up::detail
