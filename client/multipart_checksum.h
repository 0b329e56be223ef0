// client/multipart_checksum.h: the checksum of a multipart object made from its parts' checksums: COMPOSITE,
// the algorithm over the concatenated raw part digests with "-<part count>" (reference §6.2), and
// FULL_OBJECT, the part CRCs combined in part order (§6.3).
#pragma once

#include <span>
#include <string>

#include "s3up/checksum.h"
#include "s3up/client.h"

namespace s3up {

// The object's checksum as S3 answers it on CompleteMultipartUpload: base64 for FULL_OBJECT,
// "<base64>-<part count>" for COMPOSITE. Error{invalid_argument} when a part's checksum is missing or not a
// digest of the algorithm, or the pair is not one S3 supports.
Result<std::string> multipart_object_checksum(ChecksumAlgorithm algorithm, ChecksumType type,
                                              std::span<const CompletedPart> parts);

}  // namespace s3up
