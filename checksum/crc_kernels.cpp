// crc_kernels.cpp: the table of CRC kernels, the run-time choice among them from the CPU's features, and
// the public crc*_update functions, which run the chosen kernel. The portable kernels are always present
// and are the fallback on other CPUs and architectures.
#include "crc_dispatch.h"
#include "s3up/checksum.h"

namespace s3up::detail {
namespace {

bool always_supported() {
  return true;
}

// Immutable: function pointers only, fastest last.
constexpr CrcKernelSet kernel_sets[] = {
    {"portable", always_supported, crc32_portable, crc32c_portable, crc64nvme_portable},
#if defined(__x86_64__)
    {"pclmul", pclmul_supported, crc32_pclmul, crc32c_pclmul, crc64nvme_pclmul},
    {"avx512-vpclmul", avx512_vpclmul_supported, crc32_avx512, crc32c_avx512, crc64nvme_avx512},
#endif
};

const CrcKernelSet& choose_crc_kernel_set() {
  const CrcKernelSet* best = &kernel_sets[0];
  for (const CrcKernelSet& set : kernel_sets)
    if (set.supported()) best = &set;
  return *best;
}

}  // namespace

std::span<const CrcKernelSet> crc_kernel_sets() {
  return kernel_sets;
}

const CrcKernelSet& selected_crc_kernel_set() {
  // A function-local constant: initialised once, thread-safely, on the first CRC.
  static const CrcKernelSet& selected = choose_crc_kernel_set();
  return selected;
}

}  // namespace s3up::detail

namespace s3up {

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::byte> data) {
  return detail::selected_crc_kernel_set().crc32(crc, data);
}

std::uint32_t crc32c_update(std::uint32_t crc, std::span<const std::byte> data) {
  return detail::selected_crc_kernel_set().crc32c(crc, data);
}

std::uint64_t crc64nvme_update(std::uint64_t crc, std::span<const std::byte> data) {
  return detail::selected_crc_kernel_set().crc64nvme(crc, data);
}

}  // namespace s3up
