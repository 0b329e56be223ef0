// body/encoder_support.cpp: the end-of-body checks and framing-text helpers shared by every body encoder.
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

}  // namespace s3up::body_detail
