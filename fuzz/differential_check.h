// fuzz/differential_check.h: the differential check shared by the differential fuzz target and the
// deterministic tests/differential suite. A case pushes one body through a body encoder into reads of
// chosen sizes, decodes the output with the mock server's aws-chunked decoder, and compares everything with
// values computed apart from the encoder: payload bytes, checksum, chunk and trailer signatures, lengths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "s3up/checksum.h"
#include "s3up/sigv4.h"

namespace s3up::differential {

// The body encoders and the way each is used by the client.
enum class Mode {
  unsigned_trailer,  // TrailerEncoder: STREAMING-UNSIGNED-PAYLOAD-TRAILER (no algorithm: no trailer line)
  signed_chunks,     // SignedChunkEncoder: signed chunks, plus a signed trailer when an algorithm is set
  raw,               // RawBodyEncoder alone (no checksum, or one sent elsewhere)
  header,            // HeaderChecksumPreread, then RawBodyEncoder over the rewound source
};

struct Case {
  Mode mode = Mode::unsigned_trailer;
  std::optional<ChecksumAlgorithm> algorithm;  // the trailer's (chunked modes) or the header's (header)
  std::size_t chunk_size = 8192;               // chunked modes; below 8 KiB the encoder must refuse it
  std::vector<std::byte> body;
  // The size the source declares minus its real size. Non-zero: encoding must fail with ended_early (> 0)
  // or longer_than_declared (< 0) and never produce the whole encoded length.
  std::int64_t size_delta = 0;
  // Upper bounds of successive source reads, cycled: short reads are legal for a BodySource. Empty: none.
  std::vector<std::size_t> source_reads;
  // Sizes of the buffers handed to fill(), cycled (curl's upload buffer varies the same way). Never empty.
  std::vector<std::size_t> output_reads;
  // Encode this many bytes (or all, if fewer), restart() as a retry does, then encode from the start.
  std::optional<std::uint64_t> restart_after;
  // Header mode: also the payload SHA-256 and the Content-MD5, through a pre-read buffer of this size.
  bool payload_sha256 = false;
  bool content_md5 = false;
  std::size_t preread_buffer = 4096;
};

// Where case parameters come from: the fuzzer's input bytes or a seeded PRNG. One generator of cases
// (make_case) serves both, so the fuzz target and the deterministic test explore the same space.
class Entropy {
 public:
  virtual ~Entropy() = default;
  // A value in [low, high]. A fuzzer input that has run out gives low.
  virtual std::uint64_t between(std::uint64_t low, std::uint64_t high) = 0;
};

// splitmix64: a fixed, portable sequence for a given seed (std:: distributions differ between libraries).
class SplitMix64 final : public Entropy {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  std::uint64_t between(std::uint64_t low, std::uint64_t high) override;

 private:
  std::uint64_t state_;
};

struct CaseLimits {
  std::size_t max_body = 300 * 1024;
};

Case make_case(Entropy& entropy, const CaseLimits& limits = {});

// The signing context of every signed case: the reference §4 credentials, date and scope, and the §4.4
// seed signature. The encoder and the verifier each get their own signer built from it.
sigv4::ChunkSigner reference_signer();

// One line describing the case, for failure reports.
std::string describe(const Case& c);

// nullopt when every check passed; otherwise what differed.
std::optional<std::string> check(const Case& c);

}  // namespace s3up::differential
