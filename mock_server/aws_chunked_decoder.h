// aws_chunked_decoder.h: a streaming decoder for the aws-chunked content encoding (reference §2): chunk-size
// lines with optional ";chunk-signature=", data, CRLF, the zero chunk, trailer lines and the final CRLF.
// It checks the framing and the 8 KiB minimum chunk size; what the chunks and trailers mean (signatures,
// checksums) is the sink's business. Fixed-size state: no allocation while decoding.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "s3_error.h"

namespace s3up::mock {

inline constexpr std::uint64_t min_chunk_size = 8192;    // every chunk but the last data chunk (§2.1)
inline constexpr std::size_t max_chunk_size_line = 128;  // 16 hex digits + ";chunk-signature=" + 64 hex
inline constexpr std::size_t max_trailer_line = 1024;
inline constexpr int max_trailer_count = 16;

// Receives what the decoder finds, in body order. A returned error stops decoding.
class AwsChunkedSink {
 public:
  virtual ~AwsChunkedSink() = default;
  // signature is empty for unsigned chunks. size 0 is the final chunk.
  virtual std::optional<S3Error> on_chunk_header(std::uint64_t size, std::string_view signature) = 0;
  virtual void on_chunk_data(std::span<const std::byte> data) = 0;
  virtual std::optional<S3Error> on_chunk_end() = 0;
  virtual std::optional<S3Error> on_trailer(std::string_view name, std::string_view value) = 0;
  virtual std::optional<S3Error> on_end() = 0;  // after the final empty line
};

class AwsChunkedDecoder {
 public:
  // signed_chunks: every chunk-size line must carry ";chunk-signature=<64 hex>"; otherwise none may.
  AwsChunkedDecoder(bool signed_chunks, AwsChunkedSink& sink);

  std::optional<S3Error> feed(std::span<const std::byte> input);
  bool finished() const { return state_ == State::done; }

 private:
  enum class State { size_line, data, data_cr, data_lf, trailer_line, done, failed };

  std::optional<S3Error> size_line_done();
  std::optional<S3Error> trailer_line_done();
  std::optional<S3Error> fail(S3Error error);

  bool signed_chunks_;
  AwsChunkedSink& sink_;
  State state_ = State::size_line;
  std::array<char, max_trailer_line + 2> line_{};
  std::size_t line_length_ = 0;
  std::uint64_t remaining_ = 0;     // data bytes left in the current chunk
  std::uint64_t chunk_number_ = 0;  // 1-based, of the current chunk
  std::uint64_t last_data_size_ = 0;
  bool have_data_chunk_ = false;
  int trailer_count_ = 0;
};

}  // namespace s3up::mock
