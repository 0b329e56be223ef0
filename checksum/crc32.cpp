// crc32.cpp: CRC32 (CRC-32/ISO-HDLC). The portable kernel delegates to zlib, which has exactly the chaining
// semantics we publish; crc32_update runs the kernel chosen for this CPU (crc_kernels.cpp).
#include <zlib.h>

#include "crc_dispatch.h"
#include "s3up/checksum.h"

namespace s3up {

std::uint32_t detail::crc32_portable(std::uint32_t crc, std::span<const std::byte> data) {
  // crc32_z takes a z_size_t length, so even huge spans go through in one call.
  return static_cast<std::uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(data.data()), static_cast<z_size_t>(data.size())));
}

std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::byte> data) {
  return detail::selected_crc_kernel_set().crc32(crc, data);
}

}  // namespace s3up
