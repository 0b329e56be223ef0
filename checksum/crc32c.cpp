// crc32c.cpp: the CRC32C (CRC-32/ISCSI, Castagnoli) kernel, portable slicing-by-8.
// crc32c_update runs the kernel chosen for this CPU (crc_kernels.cpp); this one is the reference.
#include "crc_dispatch.h"
#include "crc_slicing.h"
#include "s3up/checksum.h"

namespace s3up {
namespace {

constexpr std::uint32_t crc32c_reflected_poly = 0x82F63B78;  // reflected 0x1EDC6F41
constexpr detail::SlicingTables<std::uint32_t> crc32c_tables =
    detail::make_slicing_tables<std::uint32_t>(crc32c_reflected_poly);

}  // namespace

std::uint32_t detail::crc32c_portable(std::uint32_t crc, std::span<const std::byte> data) {
  return detail::slicing_by_8_update(crc32c_tables, crc, data);
}

std::uint32_t crc32c_update(std::uint32_t crc, std::span<const std::byte> data) {
  return detail::selected_crc_kernel_set().crc32c(crc, data);
}

}  // namespace s3up
