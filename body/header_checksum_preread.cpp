// body/header_checksum_preread.cpp: HeaderChecksumPreread, the one pass over a body that computes the
// x-amz-checksum-* header value, the payload SHA-256 and the Content-MD5 before the body is sent.
#include <vector>

#include "encoder_support.h"
#include "s3up/body.h"

namespace s3up {

// The read buffer and digest contexts, created once and reused by every run.
struct HeaderChecksumPreread::State {
  explicit State(std::size_t buffer_size) : buffer(buffer_size) {}

  std::vector<std::byte> buffer;
  std::unique_ptr<Checksum> checksum;  // replaced only when a run asks for another algorithm
  Sha256 sha256;
  Md5 md5;
};

HeaderChecksumPreread::HeaderChecksumPreread(std::size_t buffer_size) {
  if (buffer_size == 0) throw BodyError(BodyError::Kind::invalid_argument, "pre-read buffer size is zero");
  state_ = std::make_unique<State>(buffer_size);
}

HeaderChecksumPreread::~HeaderChecksumPreread() = default;

PrereadDigests HeaderChecksumPreread::run(BodySource& source, std::optional<ChecksumAlgorithm> checksum,
                                          bool payload_sha256, bool content_md5) {
  // Refuse before reading: a one-pass source consumed here could not be sent afterwards.
  if (!source.can_rewind()) {
    throw BodyError(BodyError::Kind::not_rewindable,
                    "the body cannot be rewound, so its checksum cannot be computed before sending it in a "
                    "header; send the checksum in a trailer instead (--checksum-location trailer)");
  }
  State& s = *state_;
  if (checksum) {
    if (!s.checksum || s.checksum->algorithm() != *checksum) s.checksum = make_checksum(*checksum);
    s.checksum->reset();
  }
  if (payload_sha256) s.sha256.reset();
  if (content_md5) s.md5.reset();

  // Read no further than the declared size; one probe read then tells whether the source runs long.
  const std::optional<std::uint64_t> declared = source.size();
  PrereadDigests digests;
  while (!declared || digests.bytes < *declared) {
    std::span<std::byte> to(s.buffer);
    if (declared)
      to = to.first(static_cast<std::size_t>(std::min<std::uint64_t>(to.size(), *declared - digests.bytes)));
    std::size_t n = source.read(to);
    if (n == 0) break;
    std::span<const std::byte> bytes = to.first(n);
    if (checksum) s.checksum->update(bytes);
    if (payload_sha256) s.sha256.update(bytes);
    if (content_md5) s.md5.update(bytes);
    digests.bytes += n;
  }
  if (declared) {
    if (digests.bytes < *declared) body_detail::throw_ended_early(digests.bytes, *declared);
    body_detail::expect_source_end(source, *declared);
  }
  if (checksum) digests.checksum = s.checksum->finish();
  if (payload_sha256) digests.payload_sha256 = s.sha256.finish();
  if (content_md5) digests.content_md5 = s.md5.finish();
  source.rewind();
  return digests;
}

}  // namespace s3up
