// crc64nvme.cpp: the CRC64NVME (CRC-64/NVME, "Rocksoft") kernel, portable slicing-by-8.
// crc64nvme_update runs the kernel chosen for this CPU (crc_kernels.cpp); this one is the reference.
#include "crc_dispatch.h"
#include "crc_slicing.h"
#include "s3up/checksum.h"

namespace s3up {
namespace {

constexpr std::uint64_t crc64nvme_reflected_poly = 0x9A6C9329AC4BC9B5;  // reflected 0xAD93D23594C93659
constexpr detail::SlicingTables<std::uint64_t> crc64nvme_tables =
    detail::make_slicing_tables<std::uint64_t>(crc64nvme_reflected_poly);

}  // namespace

std::uint64_t detail::crc64nvme_portable(std::uint64_t crc, std::span<const std::byte> data) {
  return detail::slicing_by_8_update(crc64nvme_tables, crc, data);
}

std::uint64_t crc64nvme_update(std::uint64_t crc, std::span<const std::byte> data) {
  return detail::selected_crc_kernel_set().crc64nvme(crc, data);
}

}  // namespace s3up
