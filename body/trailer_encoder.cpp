// body/trailer_encoder.cpp: TrailerEncoder, STREAMING-UNSIGNED-PAYLOAD-TRAILER framing (reference §2.1-2.2).
// Payload bytes go from the source straight into curl's buffer and are checksummed there; the framing text
// around them comes from fixed-size arrays, so fill() never allocates.
#include <array>

#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

using body_detail::FixedText;

namespace {

// "0\r\n" + trailer line + "\r\n" + the final "\r\n".
constexpr std::size_t max_tail_size = 3 + body_detail::max_trailer_line_size + 2 + 2;

}  // namespace

struct TrailerEncoder::State {
  body_detail::ChunkedFraming framing;
  std::uint64_t payload_read = 0;  // decoded bytes taken from the source so far
  Digest trailer;                  // set when the tail is formatted

  std::array<char, body_detail::max_chunk_line_size> full_chunk_line{};  // every chunk but the last is full
  std::string_view full_chunk_line_text;                                 // formatted once
  std::array<char, body_detail::max_chunk_line_size> last_chunk_line{};
  std::array<char, max_tail_size> tail{};
};

TrailerEncoder::TrailerEncoder(BodySource& source, std::unique_ptr<Checksum> checksum, std::size_t chunk_size)
    : source_(source),
      checksum_(std::move(checksum)),
      chunk_size_(chunk_size),
      decoded_length_(body_detail::aws_chunked_decoded_length(source, checksum_.get(), chunk_size)),
      encoded_length_(aws_chunked_length(decoded_length_, chunk_size_, false,
                                         checksum_ ? std::optional(checksum_->algorithm()) : std::nullopt)),
      state_(std::make_unique<State>()) {
  FixedText line(state_->full_chunk_line);
  body_detail::append_chunk_line(line, chunk_size_);
  state_->full_chunk_line_text = line.view();
}

TrailerEncoder::~TrailerEncoder() = default;

std::size_t TrailerEncoder::fill(std::span<std::byte> dest) {
  State& s = *state_;
  // Payload goes straight into dest anyway (see payload below), so a chunk is never written whole here.
  auto next_chunk = [&](std::span<std::byte>) -> std::size_t {
    std::uint64_t left = decoded_length_ - s.payload_read;
    if (left >= chunk_size_) {
      s.framing.start_chunk(s.full_chunk_line_text, chunk_size_);
    } else if (left > 0) {
      FixedText line(s.last_chunk_line);
      body_detail::append_chunk_line(line, left);
      s.framing.start_chunk(line.view(), static_cast<std::size_t>(left));
    } else {
      // Every declared byte has been sent; prove the source has no more before the trailer seals it.
      body_detail::expect_source_end(source_, decoded_length_);
      FixedText tail(s.tail);
      body_detail::append_chunk_line(tail, 0);
      if (checksum_) {
        s.trailer = body_detail::append_trailer_line(tail, *checksum_);
        tail.append(body_detail::crlf);
      }
      tail.append(body_detail::crlf);
      s.framing.start_tail(tail.view());
    }
    return 0;
  };
  // The payload goes straight into dest and is checksummed there. A short read returns less than asked: the
  // framing loop calls again, so that every chunk but the last is full.
  auto payload = [&](std::span<std::byte> to) {
    std::size_t n = source_.read(to);
    if (n == 0) body_detail::throw_ended_early(s.payload_read, decoded_length_);
    if (checksum_) checksum_->update(to.first(n));
    s.payload_read += n;
    return n;
  };
  std::size_t written = s.framing.fill(dest, next_chunk, payload);
  if (s.framing.done() && checksum_) trailer_checksum_ = s.trailer;
  return written;
}

void TrailerEncoder::restart() {
  source_.rewind();
  if (checksum_) checksum_->reset();
  trailer_checksum_.reset();
  state_->framing.restart();
  state_->payload_read = 0;
}

}  // namespace s3up
