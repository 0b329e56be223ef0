// http_body.cpp: the framing a head announces, Content-Length and HTTP/1.1 chunked request bodies, and the
// interim 100 Continue.
#include "http_body.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "connection.h"
#include "http_request.h"

namespace s3up::mock {

namespace {

constexpr std::size_t max_chunk_line = 4096;  // hex size plus extensions we ignore
constexpr int max_trailer_lines = 64;

}  // namespace

RequestBody::RequestBody(BufferedReader& reader, Framing framing, std::uint64_t content_length,
                         bool expect_continue)
    : reader_(reader), framing_(framing), content_length_(content_length), expect_continue_(expect_continue) {
  if (framing_ == Framing::none || (framing_ == Framing::length && content_length_ == 0))
    state_ = State::done;
}

RequestBody::Result RequestBody::fail(Status status) {
  state_ = State::failed;
  if (status == Status::truncated && reader_.connection().timed_out()) status = Status::timed_out;
  return {0, status};
}

RequestBody::Result RequestBody::read(std::span<std::byte> out) {
  if (state_ == State::done) return {0, Status::end};
  if (state_ == State::failed) return {0, Status::malformed};
  if (state_ == State::start) {
    // The client holds the body back until it sees this; sending it only now means an early error answer
    // (bad signature, missing bucket) saves the upload.
    if (expect_continue_ && !reader_.connection().send_continue()) return fail(Status::truncated);
    remaining_ = content_length_;
    state_ = framing_ == Framing::length ? State::data : State::chunk_size;
  }
  Result result = framing_ == Framing::length ? read_length(out) : read_chunked(out);
  received_ += result.size;
  return result;
}

RequestBody::Result RequestBody::read_length(std::span<std::byte> out) {
  std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), remaining_));
  std::size_t n = reader_.read(out.first(want));
  if (n == 0) return fail(Status::truncated);
  remaining_ -= n;
  if (remaining_ == 0) state_ = State::done;
  return {n, Status::ok};
}

RequestBody::Result RequestBody::read_chunked(std::span<std::byte> out) {
  for (;;) {
    std::string_view line;
    switch (state_) {
      case State::chunk_size: {
        auto status = reader_.read_line(max_chunk_line, line);
        if (status == BufferedReader::LineStatus::closed) return fail(Status::truncated);
        if (status != BufferedReader::LineStatus::ok) return fail(Status::malformed);
        std::string_view size_text = line.substr(0, line.find(';'));  // chunk extensions are ignored
        while (!size_text.empty() && (size_text.back() == ' ' || size_text.back() == '\t'))
          size_text.remove_suffix(1);
        if (size_text.empty() || size_text.size() > 15) return fail(Status::malformed);
        std::uint64_t size = 0;
        for (char c : size_text) {
          int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
          if (digit < 0) return fail(Status::malformed);
          size = size * 16 + static_cast<std::uint64_t>(digit);
        }
        remaining_ = size;
        state_ = size == 0 ? State::trailers : State::chunk_data;
        break;
      }
      case State::chunk_data: {
        std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), remaining_));
        std::size_t n = reader_.read(out.first(want));
        if (n == 0) return fail(Status::truncated);
        remaining_ -= n;
        if (remaining_ == 0) state_ = State::chunk_crlf;
        return {n, Status::ok};
      }
      case State::chunk_crlf: {
        auto status = reader_.read_line(0, line);
        if (status == BufferedReader::LineStatus::closed) return fail(Status::truncated);
        if (status != BufferedReader::LineStatus::ok || !line.empty()) return fail(Status::malformed);
        state_ = State::chunk_size;
        break;
      }
      case State::trailers: {
        // HTTP trailer fields (not aws-chunked ones, which live inside the data) are read and dropped.
        for (int i = 0; i <= max_trailer_lines; ++i) {
          auto status = reader_.read_line(max_chunk_line, line);
          if (status == BufferedReader::LineStatus::closed) return fail(Status::truncated);
          if (status != BufferedReader::LineStatus::ok) return fail(Status::malformed);
          if (line.empty()) {
            state_ = State::done;
            return {0, Status::end};
          }
        }
        return fail(Status::malformed);
      }
      default:
        return fail(Status::malformed);
    }
  }
}

std::optional<S3Error> body_framing(const HttpRequest& request, RequestBody::Framing& framing,
                                    std::uint64_t& length) {
  framing = RequestBody::Framing::none;
  length = 0;
  auto transfer_encoding = request.value("transfer-encoding");
  auto content_length = request.value("content-length");
  if (transfer_encoding) {
    // Both at once is how requests get smuggled (RFC 9112 §6.3): refuse rather than guess.
    if (content_length)
      return s3_error(400, "BadRequest", "Content-Length and Transfer-Encoding are both present");
    if (!ascii_iequals(trim_http_whitespace(*transfer_encoding), "chunked")) {
      S3Error error = s3_error(501, "NotImplemented",
                               "A header you provided implies functionality that is not implemented");
      error.details.emplace_back("Header", "Transfer-Encoding");
      return error;
    }
    framing = RequestBody::Framing::chunked;
    return std::nullopt;
  }
  if (content_length) {
    std::string_view text = trim_http_whitespace(*content_length);
    if (text.empty() || text.size() > 19 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return s3_error(400, "BadRequest", "Invalid Content-Length");
    }
    framing = RequestBody::Framing::length;
    length = std::stoull(std::string(text));
  }
  return std::nullopt;
}

}  // namespace s3up::mock
