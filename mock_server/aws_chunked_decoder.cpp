// aws_chunked_decoder.cpp: the aws-chunked framing state machine.
#include "aws_chunked_decoder.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace s3up::mock {

namespace {

constexpr std::string_view signature_extension = ";chunk-signature=";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_lower_hex(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

S3Error chunk_size_error(std::uint64_t chunk, std::uint64_t size) {
  S3Error error = s3_error(400, "InvalidChunkSizeError",
                           "Only the last chunk is allowed to have a size less than 8192 bytes");
  error.details.emplace_back("Chunk", std::to_string(chunk));
  error.details.emplace_back("BadChunkSize", std::to_string(size));
  return error;
}

}  // namespace

AwsChunkedDecoder::AwsChunkedDecoder(bool signed_chunks, AwsChunkedSink& sink)
    : signed_chunks_(signed_chunks), sink_(sink) {}

std::optional<S3Error> AwsChunkedDecoder::fail(S3Error error) {
  state_ = State::failed;
  return error;
}

std::optional<S3Error> AwsChunkedDecoder::feed(std::span<const std::byte> input) {
  const char* in = reinterpret_cast<const char*>(input.data());
  std::size_t size = input.size();
  std::size_t pos = 0;
  while (pos < size) {
    switch (state_) {
      case State::data: {
        std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, size - pos));
        sink_.on_chunk_data(input.subspan(pos, n));
        pos += n;
        remaining_ -= n;
        if (remaining_ == 0) state_ = State::data_cr;
        break;
      }
      case State::data_cr:
        if (in[pos++] != '\r') return fail(body_terminated_error());
        state_ = State::data_lf;
        break;
      case State::data_lf: {
        if (in[pos++] != '\n') return fail(body_terminated_error());
        if (auto error = sink_.on_chunk_end()) return fail(std::move(*error));
        state_ = State::size_line;
        break;
      }
      case State::size_line:
      case State::trailer_line: {
        // Lines are short: gather them byte by byte into the fixed buffer.
        std::size_t limit = state_ == State::size_line ? max_chunk_size_line : max_trailer_line;
        const char* lf = static_cast<const char*>(std::memchr(in + pos, '\n', size - pos));
        std::size_t take = lf ? static_cast<std::size_t>(lf - (in + pos)) : size - pos;
        if (line_length_ + take > limit + 1) {
          return fail(state_ == State::size_line ? body_terminated_error() : malformed_trailer_error());
        }
        std::copy_n(in + pos, take, line_.data() + line_length_);
        line_length_ += take;
        pos += take;
        if (!lf) break;
        ++pos;  // the LF
        if (line_length_ == 0 || line_[line_length_ - 1] != '\r') {
          return fail(state_ == State::size_line ? body_terminated_error() : malformed_trailer_error());
        }
        --line_length_;
        auto error = state_ == State::size_line ? size_line_done() : trailer_line_done();
        line_length_ = 0;
        if (error) return fail(std::move(*error));
        break;
      }
      case State::done:
        // Bytes after the final CRLF: the declared framing does not match the body.
        return fail(body_terminated_error());
      case State::failed:
        return body_terminated_error();
    }
  }
  return std::nullopt;
}

std::optional<S3Error> AwsChunkedDecoder::size_line_done() {
  std::string_view line(line_.data(), line_length_);
  std::size_t digits = 0;
  std::uint64_t size = 0;
  while (digits < line.size() && hex_value(line[digits]) >= 0) {
    if (digits == 16) return body_terminated_error();
    size = size * 16 + static_cast<std::uint64_t>(hex_value(line[digits]));
    ++digits;
  }
  if (digits == 0) return body_terminated_error();
  std::string_view extension = line.substr(digits);
  std::string_view signature;
  if (signed_chunks_) {
    if (!extension.starts_with(signature_extension)) return body_terminated_error();
    signature = extension.substr(signature_extension.size());
    if (signature.size() != 64 || !is_lower_hex(signature)) return body_terminated_error();
  } else if (!extension.empty()) {
    return body_terminated_error();
  }

  ++chunk_number_;
  if (size > 0) {
    // Only the last data chunk may be short; a short chunk followed by more data breaks the rule.
    if (have_data_chunk_ && last_data_size_ < min_chunk_size)
      return chunk_size_error(chunk_number_ - 1, last_data_size_);
    have_data_chunk_ = true;
    last_data_size_ = size;
  }
  if (auto error = sink_.on_chunk_header(size, signature)) return error;
  if (size > 0) {
    remaining_ = size;
    state_ = State::data;
    return std::nullopt;
  }
  // The zero chunk has no data and no data CRLF: trailers (or the final empty line) follow directly.
  if (auto error = sink_.on_chunk_end()) return error;
  state_ = State::trailer_line;
  return std::nullopt;
}

std::optional<S3Error> AwsChunkedDecoder::trailer_line_done() {
  std::string_view line(line_.data(), line_length_);
  if (line.empty()) {
    state_ = State::done;
    return sink_.on_end();
  }
  if (++trailer_count_ > max_trailer_count) return malformed_trailer_error();
  std::size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return malformed_trailer_error();
  std::string_view name = line.substr(0, colon);
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  return sink_.on_trailer(name, value);
}

}  // namespace s3up::mock
