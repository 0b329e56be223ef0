// multipart_checksum.h: the checksum of a multipart upload — the algorithm and type CreateMultipartUpload
// declares (x-amz-checksum-algorithm, x-amz-checksum-type; reference §6.1) — and what a completed upload's
// checksum (COMPOSITE §6.2, FULL_OBJECT §6.3) and ETag are made of.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "s3_error.h"
#include "s3up/checksum.h"

namespace s3up::mock {

struct HttpRequest;

enum class ChecksumType { composite, full_object };

std::string_view checksum_type_name(ChecksumType type);  // "COMPOSITE", "FULL_OBJECT"

struct UploadChecksum {
  std::optional<ChecksumAlgorithm> algorithm;  // nullopt: the upload declared none
  ChecksumType type = ChecksumType::full_object;
};

// CreateMultipartUpload's checksum headers, with S3's InvalidRequest for a type without an algorithm, an
// unknown algorithm or type, and a pair §6.1 does not allow. The type defaults to COMPOSITE, except for
// CRC64NVME, which is FULL_OBJECT only.
std::optional<S3Error> parse_upload_checksum(const HttpRequest& request, UploadChecksum& checksum);

// InvalidRequest "Checksum Type mismatch occurred, expected checksum Type: sha256, actual checksum Type:
// crc32" (S3 writes the names in lower case, and "null" for none).
S3Error checksum_type_mismatch(std::optional<ChecksumAlgorithm> expected,
                               std::optional<ChecksumAlgorithm> actual);

// What the object-level values are made of: each part's size, checksum and ETag bytes, in part order.
struct PartDigests {
  std::uint64_t size = 0;
  Digest checksum;
  Digest etag;
};

// COMPOSITE: the algorithm over the concatenated raw part checksums; FULL_OBJECT: the part CRCs combined
// (crc32_combine and friends). nullopt if the parts cannot make one (a FULL_OBJECT SHA, a digest of the
// wrong size).
std::optional<Digest> object_checksum(ChecksumAlgorithm algorithm, ChecksumType type,
                                      std::span<const PartDigests> parts);
// The text S3 answers: base64, with "-<part count>" appended for COMPOSITE.
std::string object_checksum_text(const Digest& checksum, ChecksumType type, std::size_t part_count);

// The quoted multipart ETag: hex MD5 of the concatenated part ETag bytes, then "-<part count>".
std::string multipart_etag(std::span<const PartDigests> parts);

}  // namespace s3up::mock
