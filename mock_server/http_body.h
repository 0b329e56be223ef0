// http_body.h: the request body as the HTTP layer frames it (Content-Length or Transfer-Encoding: chunked,
// as the head announces), delivered as a plain byte stream; it answers "Expect: 100-continue" when the body
// is first read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "s3_error.h"

namespace s3up::mock {

class BufferedReader;
struct HttpRequest;

class RequestBody {
 public:
  enum class Framing { none, length, chunked };
  enum class Status { ok, end, truncated, timed_out, malformed };
  struct Result {
    std::size_t size = 0;  // > 0 only with Status::ok
    Status status = Status::ok;
  };

  RequestBody(BufferedReader& reader, Framing framing, std::uint64_t content_length, bool expect_continue);

  // The next body bytes. truncated: the client closed before the end; timed_out: it stopped sending;
  // malformed: broken HTTP chunked framing.
  Result read(std::span<std::byte> out);

  // Every body byte was read: the connection can carry the next request.
  bool complete() const { return state_ == State::done; }
  Framing framing() const { return framing_; }
  std::uint64_t content_length() const { return content_length_; }  // Framing::length only
  std::uint64_t received() const { return received_; }

 private:
  enum class State { start, data, chunk_size, chunk_data, chunk_crlf, trailers, done, failed };

  Result read_length(std::span<std::byte> out);
  Result read_chunked(std::span<std::byte> out);
  Result fail(Status status);

  BufferedReader& reader_;
  Framing framing_;
  std::uint64_t content_length_;
  bool expect_continue_;
  State state_ = State::start;
  std::uint64_t remaining_ = 0;  // of the body (length) or of the current chunk (chunked)
  std::uint64_t received_ = 0;
};

// How the request's head frames its body (RFC 9112 §6.3), or why it cannot be read: then the connection
// must close after the answer, as nothing tells where the next request starts.
std::optional<S3Error> body_framing(const HttpRequest& request, RequestBody::Framing& framing,
                                    std::uint64_t& length);

}  // namespace s3up::mock
