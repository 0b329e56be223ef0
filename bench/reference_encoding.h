// bench/reference_encoding.h: a deliberately simple, independent aws-chunked encoder for checking the
// benchmarked encoders' output. It builds the whole body by std::string concatenation and computes its
// checksums and signatures with zlib, byte-at-a-time CRC tables and one-shot OpenSSL calls, sharing no code
// with s3up. reference_self_test() checks it against the published vectors first.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "s3up/checksum.h"

namespace s3up::bench {

enum class Framing {
  raw,               // the body as it is
  unsigned_trailer,  // STREAMING-UNSIGNED-PAYLOAD-TRAILER
  signed_chunks,     // STREAMING-AWS4-HMAC-SHA256-PAYLOAD
  signed_trailer,    // STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER
};

// What the chunk signatures chain from (reference §3.3): the seed signature and the signing inputs.
struct ReferenceSigning {
  std::string secret_access_key;
  std::string amz_date;  // YYYYMMDDTHHMMSSZ; its first 8 characters are the scope date
  std::string region;
  std::string seed_signature;  // 64 lowercase hex
};

// Base64 of the digest, CRCs big-endian, as the x-amz-checksum-* header carries it.
std::string reference_checksum_base64(ChecksumAlgorithm algorithm, std::span<const std::byte> data);

std::string reference_encoding(std::span<const std::byte> payload, Framing framing,
                               std::optional<ChecksumAlgorithm> trailer, std::size_t chunk_size,
                               const ReferenceSigning& signing);

// Checks the check values of the CRCs and the documented aws-chunked bodies (wire reference §2.2, §4.3,
// §4.4). Returns an empty string on success, else what failed.
std::string reference_self_test();

}  // namespace s3up::bench
