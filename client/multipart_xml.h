// client/multipart_xml.h: the XML documents of the multipart requests (reference §6.5): the
// CompleteMultipartUpload document the client sends, and the InitiateMultipartUploadResult,
// CompleteMultipartUploadResult and ListPartsResult documents S3 answers.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "s3up/checksum.h"
#include "s3up/client.h"

namespace s3up {

// <CompleteMultipartUpload> with one <Part> per part, in the order given: its ETag (quotes and all,
// XML-escaped), its checksum element when algorithm is set, and its number.
std::string complete_multipart_document(std::span<const CompletedPart> parts,
                                        std::optional<ChecksumAlgorithm> algorithm);

// The UploadId of an InitiateMultipartUploadResult; nullopt when the text is not one or has no UploadId.
std::optional<std::string> parse_initiate_result(std::string_view xml);

// A CompleteMultipartUploadResult: ETag, Location, ChecksumType and the checksum element of `algorithm`
// (of any algorithm when nullopt: S3 answers a CRC64NVME of its own for uploads that declared none).
// http_status and request_id are left for the caller. nullopt when the text is not one.
std::optional<CompleteMultipartUploadResult> parse_complete_result(
    std::string_view xml, std::optional<ChecksumAlgorithm> algorithm);

// One page of a ListPartsResult.
struct ListPartsPage {
  std::vector<ListedPart> parts;
  bool truncated = false;
  int next_marker = 0;  // NextPartNumberMarker: where the next page starts
};
// nullopt when the text is not a ListPartsResult or a part's number or size is not a number.
std::optional<ListPartsPage> parse_list_parts_page(std::string_view xml,
                                                   std::optional<ChecksumAlgorithm> algorithm);

}  // namespace s3up
