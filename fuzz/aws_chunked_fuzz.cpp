// fuzz/aws_chunked_fuzz.cpp: libFuzzer target for the mock server's aws-chunked decoder, with and without
// chunk signatures. Input: byte 0 holds the flags (bit 0: signed chunks), bytes 1-2 seed the split points,
// the rest is the request body. The body is fed once in pieces and once whole: both runs must report the
// same events (chunk sizes, signatures, data, trailers) and the same outcome, whatever the split.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mock_server/aws_chunked_decoder.h"

namespace {

using s3up::mock::AwsChunkedDecoder;
using s3up::mock::AwsChunkedSink;
using s3up::mock::S3Error;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "aws-chunked decoder: %s\n", what);
  std::abort();
}

// FNV-1a over the event stream: data is hashed byte by byte, so how it was split does not matter.
class EventHash {
 public:
  void add(std::string_view text) {
    for (char c : text) hash_ = (hash_ ^ static_cast<unsigned char>(c)) * 0x100000001b3;
  }
  void add(std::uint64_t value) {
    add(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325;
};

// Records the events and checks what the decoder promises its sink: data never exceeds the chunk's size
// line, signatures are present exactly in signed mode (64 characters), nothing follows on_end.
class CheckingSink final : public AwsChunkedSink {
 public:
  explicit CheckingSink(bool signed_chunks) : signed_(signed_chunks) {}

  std::optional<S3Error> on_chunk_header(std::uint64_t size, std::string_view signature) override {
    if (ended_) fail("chunk after the end");
    if (in_chunk_) fail("chunk header before the previous chunk ended");
    if (signed_ ? signature.size() != 64 : !signature.empty()) fail("signature does not match the mode");
    in_chunk_ = true;
    remaining_ = size;
    events_.add("H");
    events_.add(size);
    events_.add(signature);
    return std::nullopt;
  }
  void on_chunk_data(std::span<const std::byte> data) override {
    if (!in_chunk_ || data.size() > remaining_) fail("data beyond the chunk size");
    if (data.empty()) fail("empty data callback");
    remaining_ -= data.size();
    events_.add(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
  }
  std::optional<S3Error> on_chunk_end() override {
    if (!in_chunk_ || remaining_ != 0) fail("chunk ended before its data");
    in_chunk_ = false;
    events_.add("E");
    return std::nullopt;
  }
  std::optional<S3Error> on_trailer(std::string_view name, std::string_view value) override {
    if (ended_ || in_chunk_) fail("trailer out of place");
    if (name.empty() || name.find(':') != std::string_view::npos) fail("bad trailer name");
    events_.add("T");
    events_.add(name);
    events_.add(":");
    events_.add(value);
    return std::nullopt;
  }
  std::optional<S3Error> on_end() override {
    if (ended_ || in_chunk_) fail("end out of place");
    ended_ = true;
    events_.add("Z");
    return std::nullopt;
  }

  bool ended() const { return ended_; }
  std::uint64_t events() const { return events_.value(); }

 private:
  bool signed_;
  bool in_chunk_ = false;
  bool ended_ = false;
  std::uint64_t remaining_ = 0;
  EventHash events_;
};

struct Outcome {
  std::uint64_t events = 0;
  std::string error;  // S3 code of the first error, "" if none
  bool finished = false;
};

// split_seed nullopt: the body in one piece.
Outcome decode(bool signed_chunks, std::span<const std::byte> body, std::optional<std::uint32_t> split_seed) {
  CheckingSink sink(signed_chunks);
  AwsChunkedDecoder decoder(signed_chunks, sink);
  Outcome outcome;
  // Piece lengths from a small PRNG; the seed's low bits choose the scale (single bytes to whole body).
  std::uint32_t state = split_seed.value_or(0) * 2654435761u + 1;
  const std::size_t scale[] = {1, 2, 3, 17, 130, 1024, 9000, body.size() + 1};
  const std::size_t max_piece = split_seed ? scale[*split_seed & 7] : body.size() + 1;
  std::size_t at = 0;
  while (at < body.size()) {
    state = state * 1103515245u + 12345u;
    const std::size_t piece =
        split_seed ? std::min(body.size() - at, 1 + (state >> 8) % max_piece) : body.size();
    if (auto error = decoder.feed(body.subspan(at, piece))) {
      outcome.error = error->code;
      if (error->code.empty()) fail("error without an S3 code");
      if (decoder.finished()) fail("finished and failed at once");
      // Once failed, it stays failed.
      if (!decoder.feed(body.subspan(at, piece))) fail("accepted input after an error");
      break;
    }
    at += piece;
  }
  outcome.finished = decoder.finished();
  // Without an error, finished() is exactly "on_end was called" (bytes after the end are an error).
  if (outcome.error.empty() && outcome.finished != sink.ended()) fail("finished() disagrees with on_end()");
  outcome.events = sink.events();
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const bool signed_chunks = (data[0] & 1) != 0;
  const std::uint32_t split_seed = data[1] | (std::uint32_t{data[2]} << 8);
  std::span<const std::byte> body(reinterpret_cast<const std::byte*>(data + 3), size - 3);

  const Outcome split = decode(signed_chunks, body, split_seed);
  const Outcome whole = decode(signed_chunks, body, std::nullopt);
  if (split.events != whole.events || split.error != whole.error || split.finished != whole.finished)
    fail("the outcome depends on how the body was split");
  return 0;
}
