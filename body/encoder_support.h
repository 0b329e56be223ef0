// body/encoder_support.h: private helpers the body encoders share: the declared-size and end-of-body checks,
// fixed-buffer framing text, and the aws-chunked framing loop (chunk line → data → CRLF, then the tail)
// that TrailerEncoder and SignedChunkEncoder both run.
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

// The source's declared size, or BodyError(unknown_length) whose message ends with why_needed.
std::uint64_t declared_size(const BodySource& source, std::string_view why_needed);

// The checks both aws-chunked encoders make before producing anything (chunk size at least
// min_chunk_size, a trailer algorithm that can travel in a trailer, a declared size); returns the decoded
// length, the x-amz-decoded-content-length value.
std::uint64_t aws_chunked_decoded_length(const BodySource& source, const Checksum* trailer,
                                         std::size_t chunk_size);

// BodyError(ended_early, "body ended after X of Y bytes").
[[noreturn]] void throw_ended_early(std::uint64_t got, std::uint64_t declared);

// Called once the declared length has been read: one more read into a small stack buffer must return 0,
// otherwise the body is longer than declared and S3 would store a truncated object.
void expect_source_end(BodySource& source, std::uint64_t declared);

// Digits of value in hex (hex_length(0) == 1), as the chunk-size field writes it.
std::size_t hex_length(std::uint64_t value);

inline constexpr std::string_view crlf = "\r\n";

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

// "<hex size>\r\n" (64-bit sizes have at most 16 hex digits).
inline constexpr std::size_t max_chunk_line_size = 16 + 2;
// "<hex size>;chunk-signature=<64 hex>\r\n"
inline constexpr std::size_t max_signed_chunk_line_size =
    16 + sigv4::chunk_signature_extension.size() + std::tuple_size_v<sigv4::Signature> + 2;
// "<name>:<base64>" without its line end. The longest name is x-amz-checksum-crc64nvme (24) and the
// longest value SHA-256's 44 base64 characters.
inline constexpr std::size_t max_trailer_line_size = 24 + 1 + 44;

// Appends a chunk line: "<hex size>\r\n", or with a signature "<hex size>;chunk-signature=<sig>\r\n".
void append_chunk_line(FixedText& line, std::uint64_t size, const sigv4::Signature* signature = nullptr);
// The length of the line append_chunk_line writes for a signed chunk of this size, known before signing.
inline std::size_t signed_chunk_line_size(std::uint64_t size) {
  return hex_length(size) + sigv4::chunk_signature_extension.size() + std::tuple_size_v<sigv4::Signature> +
         crlf.size();
}

// Finishes checksum and appends its trailer line without the line end, "x-amz-checksum-crc32:DUoRhQ==";
// returns the digest sent.
Digest append_trailer_line(FixedText& text, Checksum& checksum);

// The progress of an aws-chunked encoder through its body, kept between fill() calls. Each data chunk is
// its chunk line, its data and a CRLF; after the last one comes the tail (the zero chunk, the trailer lines
// and the final empty line). Text and data may stop mid-way when dest is full and go on at the next call.
class ChunkedFraming {
 public:
  // Writes the body into dest until dest is full or the tail has been written; returns the bytes written.
  //  - next_chunk(room) is called when the next chunk is due, room being what is left of dest. It either
  //    calls start_chunk() or start_tail() and returns 0, or writes a whole framed chunk (line, data, CRLF)
  //    at the start of room itself and returns its size, the next chunk then being due;
  //  - data(to) writes the next bytes of the current chunk's data into `to` (never empty, never past the
  //    chunk) and returns how many, at least one; a source that has ended must throw.
  // Callables rather than virtual hooks: inlined, the loop costs what a hand-written one would.
  template <typename NextChunk, typename Data>
  std::size_t fill(std::span<std::byte> dest, NextChunk&& next_chunk, Data&& data) {
    std::size_t out = 0;
    while (out < dest.size()) {
      switch (stage_) {
        case Stage::next_chunk:
          out += next_chunk(dest.subspan(out));
          break;
        case Stage::text:
          copy_text(dest, out);
          break;
        case Stage::data: {
          std::size_t n = data(dest.subspan(out, std::min(dest.size() - out, data_left_)));
          out += n;
          data_left_ -= n;
          if (data_left_ == 0) start_text(crlf, Stage::next_chunk);
          break;
        }
        case Stage::done:
          return out;
      }
    }
    return out;
  }

  // The chunk line, then data_size (> 0) bytes from data(), then CRLF. line must outlive the chunk.
  void start_chunk(std::string_view line, std::size_t data_size) {
    data_left_ = data_size;
    start_text(line, Stage::data);
  }
  // The last framing text; the body ends after it. tail must outlive the body.
  void start_tail(std::string_view tail) { start_text(tail, Stage::done); }

  // True once the last byte of the tail has been written.
  bool done() const { return stage_ == Stage::done; }

  void restart() {
    stage_ = Stage::next_chunk;
    text_ = {};
    text_position_ = 0;
    data_left_ = 0;
  }

 private:
  enum class Stage { next_chunk, text, data, done };

  void start_text(std::string_view text, Stage next) {
    text_ = text;
    text_position_ = 0;
    after_text_ = next;
    stage_ = Stage::text;
  }

  // Copies as much of the pending text as fits into dest[out...]; moves on once it is all out.
  void copy_text(std::span<std::byte> dest, std::size_t& out) {
    std::size_t n = std::min(text_.size() - text_position_, dest.size() - out);
    const auto* from = reinterpret_cast<const std::byte*>(text_.data()) + text_position_;
    std::copy(from, from + n, dest.data() + out);
    text_position_ += n;
    out += n;
    if (text_position_ == text_.size()) stage_ = after_text_;
  }

  Stage stage_ = Stage::next_chunk;
  Stage after_text_ = Stage::done;  // where a finished text stage leads
  std::string_view text_;           // chunk line, CRLF or tail being written
  std::size_t text_position_ = 0;
  std::size_t data_left_ = 0;  // data bytes still to come in this chunk
};

}  // namespace s3up::body_detail
