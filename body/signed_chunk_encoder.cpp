// body/signed_chunk_encoder.cpp: SignedChunkEncoder, STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER] framing
// (reference §2.3-2.4, signatures §3.3-3.4). A chunk's signature covers its SHA-256 and must precede its
// data, so each chunk is read whole, hashed and signed before its line goes out. When the whole framed
// chunk fits in dest, the data is read straight into place after its line (whose length is known before
// signing) and the line written in front; otherwise it goes through one reused chunk buffer.
#include <array>
#include <vector>

#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

using body_detail::FixedText;

namespace {

constexpr std::size_t signature_size = std::tuple_size_v<sigv4::Signature>;
// The canonical trailer the trailer signature covers: the trailer line ending in "\n" (§3.4).
constexpr std::size_t max_canonical_trailer_size = body_detail::max_trailer_line_size + 1;
// Signed zero chunk + trailer line + "\r\n" + "x-amz-trailer-signature:<64 hex>\r\n" + the final "\r\n".
constexpr std::size_t max_tail_size = body_detail::max_signed_chunk_line_size +
                                      body_detail::max_trailer_line_size + 2 +
                                      (sigv4::trailer_signature_name.size() + 1 + signature_size + 2) + 2;

}  // namespace

struct SignedChunkEncoder::State {
  explicit State(std::size_t chunk_size) : chunk(chunk_size) {}

  body_detail::ChunkedFraming framing;
  std::uint64_t payload_read = 0;  // decoded bytes read into `chunk` so far
  std::size_t chunk_position = 0;  // bytes of the current chunk already handed to the framing
  Digest trailer;                  // set when the tail is formatted

  std::vector<std::byte> chunk;  // allocated once, reused for every chunk that does not fit in dest
  Sha256 chunk_sha256;
  std::array<char, body_detail::max_signed_chunk_line_size> chunk_line{};
  std::array<char, max_canonical_trailer_size> canonical_trailer{};
  std::array<char, max_tail_size> tail{};
};

SignedChunkEncoder::SignedChunkEncoder(BodySource& source, sigv4::ChunkSigner signer,
                                       std::unique_ptr<Checksum> trailer_checksum, std::size_t chunk_size)
    : source_(source),
      signer_(std::move(signer)),
      checksum_(std::move(trailer_checksum)),
      chunk_size_(chunk_size),
      decoded_length_(body_detail::aws_chunked_decoded_length(source, checksum_.get(), chunk_size)),
      encoded_length_(aws_chunked_length(decoded_length_, chunk_size_, true,
                                         checksum_ ? std::optional(checksum_->algorithm()) : std::nullopt)),
      state_(std::make_unique<State>(chunk_size)) {}

SignedChunkEncoder::~SignedChunkEncoder() = default;

std::size_t SignedChunkEncoder::fill(std::span<std::byte> dest) {
  State& s = *state_;
  // Reads the next chunk's data into `data` (all of it: the signature covers the whole chunk), feeds the
  // trailer checksum and returns the chunk's signature.
  auto read_and_sign = [&](std::span<std::byte> data) {
    std::size_t n = body_detail::read_full(source_, data);
    s.payload_read += n;
    if (n < data.size()) body_detail::throw_ended_early(s.payload_read, decoded_length_);
    if (s.payload_read == decoded_length_) body_detail::expect_source_end(source_, decoded_length_);
    if (checksum_) checksum_->update(data);
    s.chunk_sha256.reset();
    s.chunk_sha256.update(data);
    return signer_.sign_chunk(s.chunk_sha256.finish());
  };
  auto next_chunk = [&](std::span<std::byte> room) -> std::size_t {
    std::uint64_t left = decoded_length_ - s.payload_read;
    if (left > 0) {
      const auto size = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk_size_));
      const std::size_t line_size = body_detail::signed_chunk_line_size(size);
      if (room.size() >= line_size + size + body_detail::crlf.size()) {
        // The framed chunk fits: data in place after the line, hashed there, then the line in front.
        const sigv4::Signature signature = read_and_sign(room.subspan(line_size, size));
        FixedText line(std::span(reinterpret_cast<char*>(room.data()), line_size));
        body_detail::append_chunk_line(line, size, &signature);
        if (line.view().size() != line_size) throw std::logic_error("s3up: signed chunk line size mismatch");
        const auto* crlf = reinterpret_cast<const std::byte*>(body_detail::crlf.data());
        std::copy_n(crlf, body_detail::crlf.size(), room.data() + line_size + size);
        return line_size + size + body_detail::crlf.size();
      }
      std::span<std::byte> chunk(s.chunk.data(), size);
      const sigv4::Signature signature = read_and_sign(chunk);
      FixedText line(s.chunk_line);
      body_detail::append_chunk_line(line, chunk.size(), &signature);
      s.chunk_position = 0;
      s.framing.start_chunk(line.view(), chunk.size());
      return 0;
    }
    if (decoded_length_ == 0) body_detail::expect_source_end(source_, decoded_length_);
    // The zero chunk is signed like the others, over the hash of no bytes.
    s.chunk_sha256.reset();
    const sigv4::Signature zero_signature = signer_.sign_chunk(s.chunk_sha256.finish());
    FixedText tail(s.tail);
    body_detail::append_chunk_line(tail, 0, &zero_signature);
    if (checksum_) {
      // The trailer signature covers the canonical trailer: the trailer line ending in LF, not CRLF (§3.4).
      FixedText canonical(s.canonical_trailer);
      s.trailer = body_detail::append_trailer_line(canonical, *checksum_);
      const std::string_view line = canonical.view();
      canonical.append("\n");
      const sigv4::Signature trailer_signature = signer_.sign_trailer(canonical.view());
      tail.append(line);
      tail.append(body_detail::crlf);
      tail.append(sigv4::trailer_signature_name);
      tail.append(":");
      tail.append(sigv4::to_string_view(trailer_signature));
      tail.append(body_detail::crlf);
    }
    tail.append(body_detail::crlf);
    s.framing.start_tail(tail.view());
    return 0;
  };
  auto data = [&](std::span<std::byte> to) {
    std::copy_n(s.chunk.data() + s.chunk_position, to.size(), to.data());
    s.chunk_position += to.size();
    return to.size();
  };
  std::size_t written = s.framing.fill(dest, next_chunk, data);
  if (s.framing.done() && checksum_) trailer_checksum_ = s.trailer;
  return written;
}

void SignedChunkEncoder::restart() {
  source_.rewind();
  if (checksum_) checksum_->reset();
  signer_.restart();
  trailer_checksum_.reset();
  state_->framing.restart();
  state_->payload_read = 0;
}

}  // namespace s3up
