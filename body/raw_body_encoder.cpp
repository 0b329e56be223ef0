// body/raw_body_encoder.cpp: RawBodyEncoder, the body as it is (header-checksum and no-checksum paths),
// read straight into curl's buffer and held to exactly the declared size.
#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

RawBodyEncoder::RawBodyEncoder(BodySource& source)
    : source_(source),
      length_(body_detail::declared_size(source, "a plain (non-chunked) upload needs it up front")) {}

std::size_t RawBodyEncoder::fill(std::span<std::byte> dest) {
  if (produced_ == length_) {
    // Only an empty body gets here before its end check; repeating it for others is harmless.
    body_detail::expect_source_end(source_, length_);
    return 0;
  }
  // Never ask for more than the declared length: the source's extra bytes must not reach the wire.
  std::uint64_t left = length_ - produced_;
  std::span<std::byte> want =
      dest.first(static_cast<std::size_t>(std::min<std::uint64_t>(dest.size(), left)));
  std::size_t n = body_detail::read_full(source_, want);
  produced_ += n;
  if (n < want.size()) body_detail::throw_ended_early(produced_, length_);
  // Check for extra bytes now, not on a later call: curl stops calling once Content-Length bytes are sent.
  if (produced_ == length_) body_detail::expect_source_end(source_, length_);
  return n;
}

void RawBodyEncoder::restart() {
  source_.rewind();
  produced_ = 0;
}

}  // namespace s3up
