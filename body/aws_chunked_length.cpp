// body/aws_chunked_length.cpp: the encoded Content-Length of an aws-chunked body, computed before sending
// (reference §2.6).
#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

std::uint64_t aws_chunked_length(std::uint64_t decoded_length, std::size_t chunk_size, bool signed_chunks,
                                 std::optional<ChecksumAlgorithm> trailer) {
  using body_detail::hex_length;
  if (chunk_size == 0) throw BodyError(BodyError::Kind::invalid_argument, "aws-chunked chunk size is zero");
  if (trailer == ChecksumAlgorithm::md5) {
    throw BodyError(BodyError::Kind::invalid_argument,
                    "MD5 cannot be sent as an aws-chunked checksum trailer");
  }
  // E: the ";chunk-signature=<64 hex>" extension every signed chunk line carries.
  const std::uint64_t extension = signed_chunks ? sigv4::chunk_signature_extension.size() + 64 : 0;
  const std::uint64_t full_chunks = decoded_length / chunk_size;
  const std::uint64_t last = decoded_length % chunk_size;

  std::uint64_t length = full_chunks * (hex_length(chunk_size) + extension + 2 + chunk_size + 2);
  if (last > 0) length += hex_length(last) + extension + 2 + last + 2;
  length += 1 + extension + 2;  // "0" [+ext] CRLF
  if (trailer) {
    length += header_name(*trailer).size() + 1 + base64_length(*trailer) + 2;  // "name:b64" CRLF
    if (signed_chunks) length += sigv4::trailer_signature_name.size() + 1 + 64 + 2;
  }
  return length + 2;  // the final empty line
}

}  // namespace s3up
