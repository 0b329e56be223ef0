// fuzz/differential_check.cpp: builds differential cases from an entropy source and checks one case: the
// body module's encoders against the mock server's aws-chunked decoder, compute_checksum and an independent
// ChunkSigner chain.
#include "fuzz/differential_check.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>

#include "mock_server/aws_chunked_decoder.h"
#include "s3up/body.h"
#include "s3up/sigv4.h"

namespace s3up::differential {

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::between(std::uint64_t low, std::uint64_t high) {
  const std::uint64_t span = high - low;
  return span == UINT64_MAX ? next() : low + next() % (span + 1);
}

namespace {

constexpr std::array<ChecksumAlgorithm, 5> trailer_algorithms = {
    ChecksumAlgorithm::crc32, ChecksumAlgorithm::crc32c, ChecksumAlgorithm::crc64nvme,
    ChecksumAlgorithm::sha1, ChecksumAlgorithm::sha256};

// ---- Case generation.

std::size_t pick_chunk_size(Entropy& entropy) {
  switch (entropy.between(0, 19)) {
    case 0:
      return entropy.between(0, min_chunk_size - 1);  // must be refused
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
      return min_chunk_size;
    case 6:
    case 7:
    case 8:
      return min_chunk_size + entropy.between(1, 64);
    case 9:
    case 10:
      return 16 * 1024;
    case 11:
    case 12:
      return default_chunk_size;
    default:
      return entropy.between(min_chunk_size, 128 * 1024);
  }
}

// Sizes that matter most sit on chunk boundaries: exact multiples of the chunk size and one either side.
std::size_t pick_body_size(Entropy& entropy, std::size_t chunk_size, std::size_t max_body) {
  std::size_t size = 0;
  const std::size_t chunk = std::max(chunk_size, min_chunk_size);
  switch (entropy.between(0, 19)) {
    case 0:
      size = 0;
      break;
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      size = entropy.between(1, 64);
      break;
    case 8:
    case 9:
    case 10:
    case 11:
      size = entropy.between(0, 2 * chunk + 16);
      break;
    case 12:
    case 13:
    case 14:
    case 15: {
      const std::size_t boundary = chunk * entropy.between(1, 3);
      size = boundary + entropy.between(0, 4) - 2;
      break;
    }
    case 16:
    case 17:
    case 18:
      size = entropy.between(0, 64 * 1024);
      break;
    default:
      size = entropy.between(0, max_body);
      break;
  }
  return std::min(size, max_body);
}

void fill_body(Entropy& entropy, std::vector<std::byte>& body) {
  switch (entropy.between(0, 3)) {
    case 0:
      std::fill(body.begin(), body.end(), std::byte{0});
      break;
    case 1:
      std::fill(body.begin(), body.end(), std::byte{'a'});
      break;
    case 2: {
      // Framing look-alikes inside the payload: the decoder must go by the chunk size, not by content.
      constexpr std::string_view text = "\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n1;chunk-signature=";
      for (std::size_t i = 0; i < body.size(); ++i) body[i] = static_cast<std::byte>(text[i % text.size()]);
      break;
    }
    default: {
      SplitMix64 bytes(entropy.between(0, UINT64_MAX));
      for (std::size_t i = 0; i < body.size(); i += 8) {
        const std::uint64_t word = bytes.next();
        for (std::size_t j = 0; j < 8 && i + j < body.size(); ++j)
          body[i + j] = static_cast<std::byte>(word >> (8 * j));
      }
      break;
    }
  }
}

// Read sizes below `floor` are raised to it, so that a large body is not read a byte at a time (the test
// must stay fast); small bodies still see every tiny size.
std::size_t pick_output_read(Entropy& entropy, std::size_t chunk_size, std::size_t floor) {
  std::size_t n = 1;
  switch (entropy.between(0, 4)) {
    case 0:
      n = entropy.between(1, 16);
      break;
    case 1:
      n = entropy.between(17, 512);
      break;
    case 2:
      n = entropy.between(513, 16 * 1024);
      break;
    case 3:
      // Around a whole framed chunk: the signed encoder switches between its in-place and buffered paths
      // there (chunk line of up to 99 bytes, data, CRLF).
      n = chunk_size + entropy.between(0, 128);
      break;
    default:
      n = entropy.between(16 * 1024, 320 * 1024);
      break;
  }
  return std::max(n, floor);
}

}  // namespace

Case make_case(Entropy& entropy, const CaseLimits& limits) {
  Case c;
  switch (entropy.between(0, 9)) {
    case 0:
    case 1:
    case 2:
    case 3:
      c.mode = Mode::unsigned_trailer;
      break;
    case 4:
    case 5:
    case 6:
      c.mode = Mode::signed_chunks;
      break;
    case 7:
      c.mode = Mode::raw;
      break;
    default:
      c.mode = Mode::header;
      break;
  }
  if (std::uint64_t a = entropy.between(0, trailer_algorithms.size()); a > 0 && c.mode != Mode::raw)
    c.algorithm = trailer_algorithms[a - 1];
  c.chunk_size = pick_chunk_size(entropy);
  c.body.resize(pick_body_size(entropy, c.chunk_size, limits.max_body));
  fill_body(entropy, c.body);

  switch (entropy.between(0, 39)) {
    case 0:
      c.size_delta = static_cast<std::int64_t>(entropy.between(1, 3));
      break;
    case 1:
      c.size_delta = c.body.empty() ? 1 : -static_cast<std::int64_t>(entropy.between(1, c.body.size()));
      break;
    default:
      break;
  }

  const std::size_t floor = c.body.size() / 16384 + 1;
  if (entropy.between(0, 1) == 1) {
    const std::size_t count = entropy.between(1, 4);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t high = entropy.between(0, 1) == 0 ? 16 : 100'000;
      c.source_reads.push_back(std::max<std::size_t>(entropy.between(1, high), floor));
    }
  }
  const std::size_t reads = entropy.between(1, 6);
  for (std::size_t i = 0; i < reads; ++i)
    c.output_reads.push_back(pick_output_read(entropy, c.chunk_size, floor));

  if (entropy.between(0, 3) == 0)
    c.restart_after = entropy.between(0, c.body.size() + c.body.size() / 8 + 200);
  if (c.mode == Mode::header) {
    c.payload_sha256 = entropy.between(0, 1) == 1;
    c.content_md5 = entropy.between(0, 1) == 1;
    c.preread_buffer =
        std::max<std::size_t>(entropy.between(1, entropy.between(0, 1) == 0 ? 64 : 70'000), floor);
  }
  return c;
}

std::string describe(const Case& c) {
  static constexpr std::array<std::string_view, 4> mode_names = {"unsigned-trailer", "signed-chunks", "raw",
                                                                 "header"};
  auto list = [](const std::vector<std::size_t>& values) {
    std::string text = "[";
    for (std::size_t v : values) text += (text.size() > 1 ? "," : "") + std::to_string(v);
    return text + "]";
  };
  std::string text = "mode=" + std::string(mode_names[static_cast<std::size_t>(c.mode)]);
  text += " algorithm=" + std::string(c.algorithm ? algorithm_name(*c.algorithm) : "none");
  text += " chunk_size=" + std::to_string(c.chunk_size) + " body=" + std::to_string(c.body.size());
  text += " size_delta=" + std::to_string(c.size_delta) + " source_reads=" + list(c.source_reads);
  text += " output_reads=" + list(c.output_reads);
  if (c.restart_after) text += " restart_after=" + std::to_string(*c.restart_after);
  if (c.mode == Mode::header) {
    text += " sha256=" + std::to_string(c.payload_sha256) + " md5=" + std::to_string(c.content_md5) +
            " preread_buffer=" + std::to_string(c.preread_buffer);
  }
  return text;
}

namespace {

// ---- Checking.

// The body as a rewindable source that declares a chosen size and hands out reads no longer than the
// case's caps: short reads are legal, and the encoders must cope with them.
class ChoppySource final : public BodySource {
 public:
  ChoppySource(std::span<const std::byte> data, std::uint64_t declared, const std::vector<std::size_t>& caps)
      : data_(data), declared_(declared), caps_(caps) {}

  std::size_t read(std::span<std::byte> dest) override {
    std::size_t n = std::min(dest.size(), data_.size() - position_);
    if (!caps_.empty()) n = std::min(n, caps_[next_cap_++ % caps_.size()]);
    std::copy_n(data_.data() + position_, n, dest.data());
    position_ += n;
    return n;
  }
  std::optional<std::uint64_t> size() const override { return declared_; }
  bool can_rewind() const override { return true; }
  void rewind() override { position_ = 0; }

 private:
  std::span<const std::byte> data_;
  std::uint64_t declared_;
  const std::vector<std::size_t>& caps_;
  std::size_t position_ = 0;
  std::size_t next_cap_ = 0;
};

}  // namespace

sigv4::ChunkSigner reference_signer() {
  static const sigv4::CredentialScope scope{"20130524", "us-east-1"};
  static const sigv4::SigningKey key =
      sigv4::derive_signing_key("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", scope);
  constexpr std::string_view seed_hex = "106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e";
  sigv4::Signature seed{};
  std::copy(seed_hex.begin(), seed_hex.end(), seed.begin());
  return sigv4::ChunkSigner(key, "20130524T000000Z", scope, seed);
}

namespace {

std::string_view as_text(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Checks the decoded payload against the body as it arrives (no copy), the chunk sizes against the
// encoder's chunk size, and each chunk signature against an independent signer chain.
class CheckingSink final : public mock::AwsChunkedSink {
 public:
  CheckingSink(const Case& c, bool signed_chunks)
      : case_(c), signed_(signed_chunks), verifier_(reference_signer()) {}

  std::optional<mock::S3Error> on_chunk_header(std::uint64_t size, std::string_view signature) override {
    if (zero_seen_) fail("a chunk after the zero chunk");
    if (size > 0) {
      if (data_chunks_ > 0 && last_size_ != case_.chunk_size)
        fail("data chunk " + std::to_string(data_chunks_) + " of " + std::to_string(last_size_) +
             " bytes is short but not the last");
      if (size > case_.chunk_size)
        fail("a chunk of " + std::to_string(size) + " bytes exceeds the chunk size");
      ++data_chunks_;
      last_size_ = size;
    } else {
      zero_seen_ = true;
    }
    if (signed_ != !signature.empty()) fail("chunk signature presence does not match the mode");
    signature_.assign(signature);
    chunk_expected_ = size;
    chunk_received_ = 0;
    sha256_.reset();
    return std::nullopt;
  }

  void on_chunk_data(std::span<const std::byte> data) override {
    chunk_received_ += data.size();
    if (signed_) sha256_.update(data);
    if (data.size() > case_.body.size() - offset_) {
      fail("more payload than the body has");
      offset_ = case_.body.size();
      return;
    }
    if (std::memcmp(data.data(), case_.body.data() + offset_, data.size()) != 0)
      fail("payload differs from the body within bytes " + std::to_string(offset_) + "+" +
           std::to_string(data.size()));
    offset_ += data.size();
  }

  std::optional<mock::S3Error> on_chunk_end() override {
    if (chunk_received_ != chunk_expected_) fail("chunk data length differs from its size line");
    if (signed_) {
      const sigv4::Signature expected = verifier_.sign_chunk(sha256_.finish());
      if (signature_ != sigv4::to_string_view(expected))
        fail("chunk " + std::to_string(data_chunks_ + (zero_seen_ ? 1 : 0)) + " signature " + signature_ +
             " is not the expected " + std::string(sigv4::to_string_view(expected)));
    }
    return std::nullopt;
  }

  std::optional<mock::S3Error> on_trailer(std::string_view name, std::string_view value) override {
    trailers_.emplace_back(name, value);
    return std::nullopt;
  }

  std::optional<mock::S3Error> on_end() override {
    ended_ = true;
    return std::nullopt;
  }

  void fail(std::string message) {
    if (!failure_) failure_ = std::move(message);
  }

  const std::optional<std::string>& failure() const { return failure_; }
  std::size_t offset() const { return offset_; }
  std::uint64_t data_chunks() const { return data_chunks_; }
  bool zero_seen() const { return zero_seen_; }
  bool ended() const { return ended_; }
  const std::vector<std::pair<std::string, std::string>>& trailers() const { return trailers_; }
  sigv4::ChunkSigner& verifier() { return verifier_; }

 private:
  const Case& case_;
  bool signed_;
  sigv4::ChunkSigner verifier_;
  Sha256 sha256_;
  std::string signature_;
  std::uint64_t chunk_expected_ = 0;
  std::uint64_t chunk_received_ = 0;
  std::uint64_t data_chunks_ = 0;
  std::uint64_t last_size_ = 0;
  std::size_t offset_ = 0;
  bool zero_seen_ = false;
  bool ended_ = false;
  std::vector<std::pair<std::string, std::string>> trailers_;
  std::optional<std::string> failure_;
};

// Pulls the encoder's output through buffers of the case's read sizes, cycled. Each buffer ends where its
// allocation ends, so a fill() that writes past the size it was given is caught by ASan.
class Reader {
 public:
  // Not zero-filled: most cases use a fraction of a buffer sized for their largest read.
  explicit Reader(const Case& c)
      : sizes_(c.output_reads),
        size_(*std::max_element(sizes_.begin(), sizes_.end())),
        buffer_(std::make_unique_for_overwrite<std::byte[]>(size_)) {}

  struct Outcome {
    std::uint64_t produced = 0;
    bool ended = false;  // fill() returned 0
    std::optional<std::string> failure;
  };

  // Reads until fill() returns 0 or `limit` bytes have come out; consume sees every piece.
  Outcome run(BodyEncoder& encoder, std::uint64_t limit,
              const std::function<void(std::span<const std::byte>)>& consume) {
    Outcome outcome;
    const std::uint64_t length = encoder.encoded_length();
    while (outcome.produced < limit) {
      const std::size_t size = sizes_[next_++ % sizes_.size()];
      std::span<std::byte> dest = buffer().last(size);
      const std::size_t n = encoder.fill(dest);
      if (n > size) {
        outcome.failure =
            "fill() reported " + std::to_string(n) + " bytes into a " + std::to_string(size) + "-byte buffer";
        return outcome;
      }
      if (n == 0) {
        outcome.ended = true;
        break;
      }
      outcome.produced += n;
      if (outcome.produced > length) {
        outcome.failure = "fill() produced more than encoded_length() = " + std::to_string(length);
        return outcome;
      }
      consume(dest.first(n));
    }
    if (outcome.ended && outcome.produced != length) {
      outcome.failure = "fill() ended after " + std::to_string(outcome.produced) + " of the " +
                        std::to_string(length) + " bytes of encoded_length()";
    }
    if (outcome.ended && encoder.fill(buffer().last(1)) != 0)
      outcome.failure = "fill() produced bytes again after it had returned 0";
    return outcome;
  }

 private:
  std::span<std::byte> buffer() { return {buffer_.get(), size_}; }

  const std::vector<std::size_t>& sizes_;
  std::size_t size_;
  std::unique_ptr<std::byte[]> buffer_;
  std::size_t next_ = 0;
};

std::unique_ptr<BodyEncoder> make_encoder(const Case& c, BodySource& source) {
  std::unique_ptr<Checksum> checksum = c.algorithm ? make_checksum(*c.algorithm) : nullptr;
  switch (c.mode) {
    case Mode::unsigned_trailer:
      return std::make_unique<TrailerEncoder>(source, std::move(checksum), c.chunk_size);
    case Mode::signed_chunks:
      return std::make_unique<SignedChunkEncoder>(source, reference_signer(), std::move(checksum),
                                                  c.chunk_size);
    case Mode::raw:
    case Mode::header:
      break;
  }
  return std::make_unique<RawBodyEncoder>(source);
}

bool chunked(Mode mode) {
  return mode == Mode::unsigned_trailer || mode == Mode::signed_chunks;
}

const std::optional<Digest>* trailer_checksum_of(const BodyEncoder& encoder) {
  if (const auto* trailer = dynamic_cast<const TrailerEncoder*>(&encoder))
    return &trailer->trailer_checksum();
  if (const auto* signed_ = dynamic_cast<const SignedChunkEncoder*>(&encoder))
    return &signed_->trailer_checksum();
  return nullptr;
}

std::optional<std::string> compare_digest(std::string_view what, const std::optional<Digest>& got,
                                          std::optional<ChecksumAlgorithm> algorithm,
                                          std::span<const std::byte> body) {
  if (!algorithm) {
    if (got) return std::string(what) + " is set though none was asked for";
    return std::nullopt;
  }
  const Digest expected = compute_checksum(*algorithm, body);
  if (!got) return std::string(what) + " is missing";
  if (!(*got == expected))
    return std::string(what) + " " + got->base64() + " is not the expected " + expected.base64();
  return std::nullopt;
}

// Size mismatch cases: the encoder (or the pre-read) must throw BodyError of the right kind before the
// whole encoded length has come out.
std::optional<std::string> check_size_mismatch(const Case& c, ChoppySource& source) {
  const BodyError::Kind expected =
      c.size_delta > 0 ? BodyError::Kind::ended_early : BodyError::Kind::longer_than_declared;
  std::uint64_t produced = 0;
  std::uint64_t length = 0;
  try {
    if (c.mode == Mode::header) {
      HeaderChecksumPreread preread(c.preread_buffer);
      preread.run(source, c.algorithm, c.payload_sha256, c.content_md5);
      return "the pre-read accepted a body whose size differs from the declared one";
    }
    std::unique_ptr<BodyEncoder> encoder = make_encoder(c, source);
    length = encoder->encoded_length();
    Reader reader(c);
    Reader::Outcome outcome = reader.run(*encoder, UINT64_MAX, [](std::span<const std::byte>) {});
    produced = outcome.produced;
    if (outcome.failure) return outcome.failure;
    return "the encoder produced the whole " + std::to_string(produced) + "-byte body without an error";
  } catch (const BodyError& error) {
    if (error.kind() != expected) return std::string("wrong BodyError kind: ") + error.what();
    if (length != 0 && produced >= length) return "the error came after the whole encoded length";
    return std::nullopt;
  }
}

std::optional<std::string> check_chunked(const Case& c, ChoppySource& source) {
  std::unique_ptr<BodyEncoder> encoder;
  try {
    encoder = make_encoder(c, source);
  } catch (const BodyError& error) {
    if (c.chunk_size < min_chunk_size && error.kind() == BodyError::Kind::invalid_argument)
      return std::nullopt;
    return std::string("the encoder refused the case: ") + error.what();
  }
  if (c.chunk_size < min_chunk_size) return "the encoder accepted a chunk size below 8 KiB";

  const bool signed_chunks = c.mode == Mode::signed_chunks;
  const std::uint64_t expected_length =
      aws_chunked_length(c.body.size(), c.chunk_size, signed_chunks, c.algorithm);
  if (encoder->encoded_length() != expected_length)
    return "encoded_length() " + std::to_string(encoder->encoded_length()) + " is not aws_chunked_length() " +
           std::to_string(expected_length);

  Reader reader(c);
  if (c.restart_after) {
    Reader::Outcome first = reader.run(*encoder, *c.restart_after, [](std::span<const std::byte>) {});
    if (first.failure) return "before restart(): " + *first.failure;
    encoder->restart();
  }

  CheckingSink sink(c, signed_chunks);
  mock::AwsChunkedDecoder decoder(signed_chunks, sink);
  std::optional<mock::S3Error> decode_error;
  Reader::Outcome outcome = reader.run(*encoder, UINT64_MAX, [&](std::span<const std::byte> piece) {
    if (!decode_error) decode_error = decoder.feed(piece);
  });
  if (outcome.failure) return outcome.failure;
  if (decode_error)
    return "the decoder refused the body: " + decode_error->code + ": " + decode_error->message;
  if (!decoder.finished()) return "the decoder did not reach the end of the body";
  if (sink.failure()) return sink.failure();
  if (sink.offset() != c.body.size())
    return "decoded " + std::to_string(sink.offset()) + " of " + std::to_string(c.body.size()) + " bytes";
  const std::uint64_t expected_chunks = (c.body.size() + c.chunk_size - 1) / c.chunk_size;
  if (sink.data_chunks() != expected_chunks)
    return std::to_string(sink.data_chunks()) + " data chunks instead of " + std::to_string(expected_chunks);
  if (!sink.zero_seen() || !sink.ended()) return "no zero chunk or no final empty line";

  std::vector<std::pair<std::string, std::string>> expected_trailers;
  if (c.algorithm) {
    std::string name(header_name(*c.algorithm));
    std::string value = compute_checksum(*c.algorithm, c.body).base64();
    if (signed_chunks) {
      const sigv4::Signature signature = sink.verifier().sign_trailer(name + ":" + value + "\n");
      expected_trailers.emplace_back(name, value);
      expected_trailers.emplace_back(sigv4::trailer_signature_name, sigv4::to_string_view(signature));
    } else {
      expected_trailers.emplace_back(std::move(name), std::move(value));
    }
  }
  if (sink.trailers() != expected_trailers) {
    std::string text = "trailers differ:";
    for (const auto& [name, value] : sink.trailers()) text += " got " + name + ":" + value;
    for (const auto& [name, value] : expected_trailers) text += " want " + name + ":" + value;
    return text;
  }
  return compare_digest("trailer_checksum()", *trailer_checksum_of(*encoder), c.algorithm, c.body);
}

std::optional<std::string> check_raw(const Case& c, ChoppySource& source) {
  if (c.mode == Mode::header) {
    HeaderChecksumPreread preread(c.preread_buffer);
    const PrereadDigests digests = preread.run(source, c.algorithm, c.payload_sha256, c.content_md5);
    if (digests.bytes != c.body.size())
      return "the pre-read counted " + std::to_string(digests.bytes) + " bytes";
    if (auto failure = compare_digest("pre-read checksum", digests.checksum, c.algorithm, c.body))
      return failure;
    auto sha256 = c.payload_sha256 ? std::optional(ChecksumAlgorithm::sha256) : std::nullopt;
    if (auto failure = compare_digest("pre-read payload SHA-256", digests.payload_sha256, sha256, c.body))
      return failure;
    auto md5 = c.content_md5 ? std::optional(ChecksumAlgorithm::md5) : std::nullopt;
    if (auto failure = compare_digest("pre-read Content-MD5", digests.content_md5, md5, c.body))
      return failure;
  }
  RawBodyEncoder encoder(source);
  if (encoder.encoded_length() != c.body.size()) return "raw encoded_length() is not the body size";
  Reader reader(c);
  if (c.restart_after) {
    Reader::Outcome first = reader.run(encoder, *c.restart_after, [](std::span<const std::byte>) {});
    if (first.failure) return "before restart(): " + *first.failure;
    encoder.restart();
  }
  std::size_t offset = 0;
  std::optional<std::string> mismatch;
  Reader::Outcome outcome = reader.run(encoder, UINT64_MAX, [&](std::span<const std::byte> piece) {
    if (!mismatch && as_text(piece) != as_text(std::span(c.body).subspan(offset, piece.size())))
      mismatch = "raw output differs from the body within bytes " + std::to_string(offset) + "+" +
                 std::to_string(piece.size());
    offset += piece.size();
  });
  if (outcome.failure) return outcome.failure;
  if (mismatch) return mismatch;
  if (!outcome.ended) return "the raw encoder did not end";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check(const Case& c) {
  const std::uint64_t declared = c.body.size() + static_cast<std::uint64_t>(c.size_delta);
  ChoppySource source(c.body, declared, c.source_reads);
  try {
    if (c.size_delta != 0 && !(chunked(c.mode) && c.chunk_size < min_chunk_size))
      return check_size_mismatch(c, source);
    return chunked(c.mode) ? check_chunked(c, source) : check_raw(c, source);
  } catch (const std::exception& error) {
    return std::string("unexpected exception: ") + error.what();
  }
}

}  // namespace s3up::differential
