// body/signed_chunk_encoder.cpp: SignedChunkEncoder, STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER] framing
// (reference §2.3-2.4, signatures §3.3-3.4). A chunk's signature covers its SHA-256 and must precede its
// data, so each chunk is read whole into one reused buffer, hashed and signed before its header goes out.
#include <array>
#include <vector>

#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

using body_detail::FixedText;

namespace {

constexpr std::size_t signature_size = std::tuple_size_v<sigv4::Signature>;
// "<16 hex digits>;chunk-signature=<64 hex>\r\n"
constexpr std::size_t max_header_size = 16 + 17 + signature_size + 2;
// "x-amz-checksum-crc64nvme:" + 44 base64 characters (SHA-256) + "\n"
constexpr std::size_t max_canonical_trailer_size = 32 + 44 + 1;
// zero chunk line + trailer line + "x-amz-trailer-signature:<64 hex>\r\n" + "\r\n"
constexpr std::size_t max_tail_size =
    (1 + 17 + signature_size + 2) + (max_canonical_trailer_size + 1) + (24 + signature_size + 2) + 2;

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

void append_signed_chunk_line(FixedText& line, std::uint64_t size, const sigv4::Signature& signature) {
  line.append_hex(size);
  line.append(sigv4::chunk_signature_extension);
  line.append(sigv4::to_string_view(signature));
  line.append(body_detail::crlf);
}

}  // namespace

// The framing state machine: next_chunk reads, hashes and signs one chunk and formats its header; then the
// header text, the chunk data and a CRLF go out; after the last chunk, the tail text (signed zero chunk,
// trailer, trailer signature, empty line). Text and data stages may end mid-way when dest fills up.
struct SignedChunkEncoder::State {
  enum class Stage { next_chunk, text, data, done };

  explicit State(std::size_t buffer_size) : chunk(buffer_size) {}

  Stage stage = Stage::next_chunk;
  Stage after_text = Stage::done;
  std::string_view text;
  std::size_t text_position = 0;
  std::size_t chunk_length = 0;    // bytes of the current chunk in `chunk`
  std::size_t chunk_position = 0;  // of those, already written to dest
  std::uint64_t payload_read = 0;
  Digest trailer;

  std::vector<std::byte> chunk;  // allocated once, reused for every chunk
  EvpDigest chunk_sha256{ChecksumAlgorithm::sha256};
  std::array<char, max_header_size> header{};
  std::array<char, max_canonical_trailer_size> canonical_trailer{};
  std::array<char, max_tail_size> tail{};

  void start_text(std::string_view framing, Stage next) {
    text = framing;
    text_position = 0;
    after_text = next;
    stage = Stage::text;
  }
};

SignedChunkEncoder::SignedChunkEncoder(BodySource& source, sigv4::ChunkSigner signer,
                                       std::unique_ptr<Checksum> trailer_checksum, std::size_t chunk_size)
    : source_(source),
      signer_(std::move(signer)),
      checksum_(std::move(trailer_checksum)),
      chunk_size_(chunk_size),
      decoded_length_(checked_decoded_length(source, checksum_.get(), chunk_size)),
      encoded_length_(aws_chunked_length(decoded_length_, chunk_size_, true,
                                         checksum_ ? std::optional(checksum_->algorithm()) : std::nullopt)),
      state_(std::make_unique<State>(chunk_size)) {}

SignedChunkEncoder::~SignedChunkEncoder() = default;

std::size_t SignedChunkEncoder::fill(std::span<std::byte> dest) {
  State& s = *state_;
  std::size_t out = 0;
  while (out < dest.size()) {
    switch (s.stage) {
      case State::Stage::next_chunk: {
        std::uint64_t left = decoded_length_ - s.payload_read;
        if (left > 0) {
          std::span<std::byte> chunk(s.chunk.data(),
                                     static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk_size_)));
          std::size_t n = body_detail::read_full(source_, chunk);
          s.payload_read += n;
          if (n < chunk.size()) body_detail::throw_ended_early(s.payload_read, decoded_length_);
          if (s.payload_read == decoded_length_) body_detail::expect_source_end(source_, decoded_length_);
          if (checksum_) checksum_->update(chunk);
          s.chunk_sha256.reset();
          s.chunk_sha256.update(chunk);
          sigv4::Signature signature = signer_.sign_chunk(s.chunk_sha256.finish());
          FixedText header(s.header);
          append_signed_chunk_line(header, chunk.size(), signature);
          s.chunk_length = chunk.size();
          s.chunk_position = 0;
          s.start_text(header.view(), State::Stage::data);
          break;
        }
        if (decoded_length_ == 0) body_detail::expect_source_end(source_, decoded_length_);
        // The zero chunk is signed like the others, over the hash of no bytes.
        s.chunk_sha256.reset();
        sigv4::Signature zero_signature = signer_.sign_chunk(s.chunk_sha256.finish());
        FixedText tail(s.tail);
        append_signed_chunk_line(tail, 0, zero_signature);
        if (checksum_) {
          // The trailer signature covers the canonical trailer text: "name:value\n", LF not CRLF (§3.4).
          s.trailer = checksum_->finish();
          FixedText canonical(s.canonical_trailer);
          canonical.append(header_name(checksum_->algorithm()));
          canonical.append(":");
          s.trailer.base64_to(canonical.extend(base64_length(checksum_->algorithm())));
          canonical.append("\n");
          sigv4::Signature trailer_signature = signer_.sign_trailer(canonical.view());
          std::string_view line = canonical.view();
          tail.append(line.substr(0, line.size() - 1));
          tail.append(body_detail::crlf);
          tail.append(sigv4::trailer_signature_name);
          tail.append(":");
          tail.append(sigv4::to_string_view(trailer_signature));
          tail.append(body_detail::crlf);
        }
        tail.append(body_detail::crlf);
        s.start_text(tail.view(), State::Stage::done);
        break;
      }
      case State::Stage::text:
        body_detail::copy_text(s.text, s.text_position, dest, out);
        if (s.text_position == s.text.size()) {
          s.stage = s.after_text;
          if (s.stage == State::Stage::done && checksum_) trailer_checksum_ = s.trailer;
        }
        break;
      case State::Stage::data: {
        std::size_t n = std::min(dest.size() - out, s.chunk_length - s.chunk_position);
        std::copy_n(s.chunk.data() + s.chunk_position, n, dest.data() + out);
        s.chunk_position += n;
        out += n;
        if (s.chunk_position == s.chunk_length) s.start_text(body_detail::crlf, State::Stage::next_chunk);
        break;
      }
      case State::Stage::done:
        return out;
    }
  }
  return out;
}

void SignedChunkEncoder::restart() {
  source_.rewind();
  if (checksum_) checksum_->reset();
  signer_.restart();
  trailer_checksum_.reset();
  State& s = *state_;
  s.stage = State::Stage::next_chunk;
  s.text = {};
  s.text_position = 0;
  s.chunk_length = 0;
  s.chunk_position = 0;
  s.payload_read = 0;
  s.trailer = Digest();
}

}  // namespace s3up
