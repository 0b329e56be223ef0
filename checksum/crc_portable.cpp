// crc_portable.cpp: the portable CRC kernels, the reference every accelerated kernel must match bit for bit
// and the fallback on other CPUs: CRC32 (CRC-32/ISO-HDLC) through zlib, CRC32C (CRC-32/ISCSI, Castagnoli)
// and CRC64NVME (CRC-64/NVME, "Rocksoft") by slicing-by-8 over tables built at compile time.
#include <zlib.h>

#include "crc_dispatch.h"
#include "crc_slicing.h"

namespace s3up::detail {
namespace {

constexpr SlicingTables<std::uint32_t> crc32c_tables = make_slicing_tables(crc32c_reflected_poly);
constexpr SlicingTables<std::uint64_t> crc64nvme_tables = make_slicing_tables(crc64nvme_reflected_poly);

}  // namespace

std::uint32_t crc32_portable(std::uint32_t crc, std::span<const std::byte> data) {
  // zlib's crc32 has exactly the chaining semantics we publish; crc32_z takes a z_size_t length, so even
  // huge spans go through in one call.
  return static_cast<std::uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(data.data()), static_cast<z_size_t>(data.size())));
}

std::uint32_t crc32c_portable(std::uint32_t crc, std::span<const std::byte> data) {
  return slicing_by_8_update(crc32c_tables, crc, data);
}

std::uint64_t crc64nvme_portable(std::uint64_t crc, std::span<const std::byte> data) {
  return slicing_by_8_update(crc64nvme_tables, crc, data);
}

}  // namespace s3up::detail
