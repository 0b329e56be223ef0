// body/encoder_support.h: private helpers the body encoders share: filling a span from a source that may
// return short reads, the end-of-body checks (ended early / longer than declared) and fixed-buffer framing
// text.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

#include "s3up/body.h"

namespace s3up::body_detail {

// Reads until dest is full or the source reports its end; returns the bytes read. Sources may return short
// reads, but a chunk must be full unless it is the last one.
std::size_t read_full(BodySource& source, std::span<std::byte> dest);

// BodyError(ended_early, "body ended after X of Y bytes").
[[noreturn]] void throw_ended_early(std::uint64_t got, std::uint64_t declared);

// Called once the declared length has been read: one more read into a small stack buffer must return 0,
// otherwise the body is longer than declared and S3 would store a truncated object.
void expect_source_end(BodySource& source, std::uint64_t declared);

// Digits of value in hex (hex_length(0) == 1), as the chunk-size field writes it.
std::size_t hex_length(std::uint64_t value);

// Text appended into a fixed-size array: framing lines are built without touching the heap. The arrays are
// sized for the longest possible line, so overflow is a programming error.
class FixedText {
 public:
  explicit FixedText(std::span<char> storage) : storage_(storage) {}

  void append(std::string_view text);
  void append_hex(std::uint64_t value);  // lower-case, no leading zeros
  // Hands out the next n characters for an encoder that writes in place (base64, hex).
  std::span<char> extend(std::size_t n);

  std::string_view view() const { return {storage_.data(), size_}; }

 private:
  std::span<char> storage_;
  std::size_t size_ = 0;
};

// Copies as much of text[position...] as fits into dest[out...]; advances both.
inline void copy_text(std::string_view text, std::size_t& position, std::span<std::byte> dest,
                      std::size_t& out) {
  std::size_t n = std::min(text.size() - position, dest.size() - out);
  const auto* from = reinterpret_cast<const std::byte*>(text.data()) + position;
  std::copy(from, from + n, dest.data() + out);
  position += n;
  out += n;
}

inline constexpr std::string_view crlf = "\r\n";

}  // namespace s3up::body_detail
