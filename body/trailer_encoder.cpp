// body/trailer_encoder.cpp: TrailerEncoder, STREAMING-UNSIGNED-PAYLOAD-TRAILER framing (reference §2.1-2.2).
// Payload bytes go from the source straight into curl's buffer and are checksummed there; the framing text
// around them comes from fixed-size arrays, so fill() never allocates.
#include <array>

#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

using body_detail::FixedText;

namespace {

// "ffffffffffffffff\r\n": the longest chunk-size line.
constexpr std::size_t max_header_size = 16 + 2;
// "0\r\n" + "x-amz-checksum-crc64nvme:" + 44 base64 characters (SHA-256) + "\r\n" + "\r\n".
constexpr std::size_t max_tail_size = 3 + 32 + 44 + 2 + 2;

std::uint64_t checked_decoded_length(const BodySource& source, const Checksum* checksum,
                                     std::size_t chunk_size) {
  if (chunk_size < min_chunk_size) {
    throw BodyError(BodyError::Kind::invalid_argument, "aws-chunked chunk size " +
                                                           std::to_string(chunk_size) + " is below the " +
                                                           std::to_string(min_chunk_size) + "-byte minimum");
  }
  if (checksum && checksum->algorithm() == ChecksumAlgorithm::md5) {
    throw BodyError(BodyError::Kind::invalid_argument,
                    "MD5 cannot be sent as an aws-chunked checksum trailer");
  }
  std::optional<std::uint64_t> size = source.size();
  if (!size) {
    throw BodyError(BodyError::Kind::unknown_length,
                    "the body size is unknown; aws-chunked needs x-amz-decoded-content-length up front");
  }
  return *size;
}

}  // namespace

// The framing state machine. Each chunk is: header text → payload → CRLF text; after the last one comes the
// tail text (zero chunk, trailer line, empty line). Text stages may end mid-way when dest fills up.
struct TrailerEncoder::State {
  enum class Stage { next_chunk, text, payload, done };

  Stage stage = Stage::next_chunk;
  Stage after_text = Stage::done;  // where a finished text stage leads
  std::string_view text;           // header, CRLF or tail being written
  std::size_t text_position = 0;
  std::size_t chunk_left = 0;      // payload bytes still to come in this chunk
  std::uint64_t payload_read = 0;  // decoded bytes taken from the source so far
  Digest trailer;                  // set when the tail is formatted

  std::array<char, max_header_size> full_header{};  // formatted once: every chunk but the last is full
  std::string_view full_header_text;
  std::array<char, max_header_size> last_header{};
  std::array<char, max_tail_size> tail{};

  void start_text(std::string_view framing, Stage next) {
    text = framing;
    text_position = 0;
    after_text = next;
    stage = Stage::text;
  }
};

TrailerEncoder::TrailerEncoder(BodySource& source, std::unique_ptr<Checksum> checksum, std::size_t chunk_size)
    : source_(source),
      checksum_(std::move(checksum)),
      chunk_size_(chunk_size),
      decoded_length_(checked_decoded_length(source, checksum_.get(), chunk_size)),
      encoded_length_(aws_chunked_length(decoded_length_, chunk_size_, false,
                                         checksum_ ? std::optional(checksum_->algorithm()) : std::nullopt)),
      state_(std::make_unique<State>()) {
  FixedText header(state_->full_header);
  header.append_hex(chunk_size_);
  header.append(body_detail::crlf);
  state_->full_header_text = header.view();
}

TrailerEncoder::~TrailerEncoder() = default;

std::size_t TrailerEncoder::fill(std::span<std::byte> dest) {
  State& s = *state_;
  std::size_t out = 0;
  while (out < dest.size()) {
    switch (s.stage) {
      case State::Stage::next_chunk: {
        std::uint64_t left = decoded_length_ - s.payload_read;
        if (left >= chunk_size_) {
          s.chunk_left = chunk_size_;
          s.start_text(s.full_header_text, State::Stage::payload);
        } else if (left > 0) {
          s.chunk_left = static_cast<std::size_t>(left);
          FixedText header(s.last_header);
          header.append_hex(left);
          header.append(body_detail::crlf);
          s.start_text(header.view(), State::Stage::payload);
        } else {
          // Every declared byte has been sent; prove the source has no more before the trailer seals it.
          body_detail::expect_source_end(source_, decoded_length_);
          FixedText tail(s.tail);
          tail.append("0\r\n");
          if (checksum_) {
            s.trailer = checksum_->finish();
            tail.append(header_name(checksum_->algorithm()));
            tail.append(":");
            std::span<char> b64 = tail.extend(base64_length(checksum_->algorithm()));
            s.trailer.base64_to(b64);
            tail.append(body_detail::crlf);
          }
          tail.append(body_detail::crlf);
          s.start_text(tail.view(), State::Stage::done);
        }
        break;
      }
      case State::Stage::text:
        body_detail::copy_text(s.text, s.text_position, dest, out);
        if (s.text_position == s.text.size()) {
          s.stage = s.after_text;
          if (s.stage == State::Stage::done && checksum_) trailer_checksum_ = s.trailer;
        }
        break;
      case State::Stage::payload: {
        std::span<std::byte> to = dest.subspan(out, std::min(dest.size() - out, s.chunk_left));
        std::size_t n = source_.read(to);
        if (n == 0) body_detail::throw_ended_early(s.payload_read, decoded_length_);
        if (checksum_) checksum_->update(to.first(n));
        out += n;
        s.payload_read += n;
        s.chunk_left -= n;
        // A short read leaves the chunk open: the loop reads again so that every chunk but the last is full.
        if (s.chunk_left == 0) s.start_text(body_detail::crlf, State::Stage::next_chunk);
        break;
      }
      case State::Stage::done:
        return out;
    }
  }
  return out;
}

void TrailerEncoder::restart() {
  source_.rewind();
  if (checksum_) checksum_->reset();
  trailer_checksum_.reset();
  State& s = *state_;
  s.stage = State::Stage::next_chunk;
  s.text = {};
  s.text_position = 0;
  s.chunk_left = 0;
  s.payload_read = 0;
  s.trailer = Digest();
}

}  // namespace s3up
