// body/encoder_support.cpp: the size and end-of-body checks and the framing-text helpers shared by the body
// encoders.
#include "encoder_support.h"

#include <array>
#include <string>

namespace s3up::body_detail {

std::size_t read_full(BodySource& source, std::span<std::byte> dest) {
  std::size_t filled = 0;
  while (filled < dest.size()) {
    std::size_t n = source.read(dest.subspan(filled));
    if (n == 0) break;
    filled += n;
  }
  return filled;
}

std::uint64_t declared_size(const BodySource& source, std::string_view why_needed) {
  std::optional<std::uint64_t> size = source.size();
  if (!size)
    throw BodyError(BodyError::Kind::unknown_length, "the body size is unknown; " + std::string(why_needed));
  return *size;
}

std::uint64_t aws_chunked_decoded_length(const BodySource& source, const Checksum* trailer,
                                         std::size_t chunk_size) {
  if (chunk_size < min_chunk_size) {
    throw BodyError(BodyError::Kind::invalid_argument, "aws-chunked chunk size " +
                                                           std::to_string(chunk_size) + " is below the " +
                                                           std::to_string(min_chunk_size) + "-byte minimum");
  }
  if (trailer && trailer->algorithm() == ChecksumAlgorithm::md5) {
    throw BodyError(BodyError::Kind::invalid_argument,
                    "MD5 cannot be sent as an aws-chunked checksum trailer");
  }
  return declared_size(source, "aws-chunked needs it up front for x-amz-decoded-content-length");
}

void throw_ended_early(std::uint64_t got, std::uint64_t declared) {
  throw BodyError(BodyError::Kind::ended_early,
                  "body ended after " + std::to_string(got) + " of " + std::to_string(declared) + " bytes");
}

void expect_source_end(BodySource& source, std::uint64_t declared) {
  std::array<std::byte, 64> probe;
  if (source.read(probe) != 0) {
    throw BodyError(BodyError::Kind::longer_than_declared,
                    "body is longer than its declared " + std::to_string(declared) + " bytes");
  }
}

std::size_t hex_length(std::uint64_t value) {
  std::size_t digits = 1;
  while (value >>= 4) ++digits;
  return digits;
}

void FixedText::append(std::string_view text) {
  std::span<char> to = extend(text.size());
  std::copy(text.begin(), text.end(), to.begin());
}

void FixedText::append_hex(std::uint64_t value) {
  static constexpr std::string_view digits = "0123456789abcdef";
  std::span<char> to = extend(hex_length(value));
  for (std::size_t i = to.size(); i-- > 0; value >>= 4) to[i] = digits[value & 0xf];
}

std::span<char> FixedText::extend(std::size_t n) {
  if (n > storage_.size() - size_) throw std::logic_error("s3up: framing text longer than its buffer");
  std::span<char> to = storage_.subspan(size_, n);
  size_ += n;
  return to;
}

void append_chunk_line(FixedText& line, std::uint64_t size, const sigv4::Signature* signature) {
  line.append_hex(size);
  if (signature) {
    line.append(sigv4::chunk_signature_extension);
    line.append(sigv4::to_string_view(*signature));
  }
  line.append(crlf);
}

Digest append_trailer_line(FixedText& text, Checksum& checksum) {
  const Digest digest = checksum.finish();
  text.append(header_name(checksum.algorithm()));
  text.append(":");
  digest.base64_to(text.extend(base64_length(checksum.algorithm())));
  return digest;
}

}  // namespace s3up::body_detail
