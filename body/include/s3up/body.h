// s3up/body.h: the body module. It owns where request bytes come from (body sources) and how they are framed
// on the wire (body encoders), and the choice between an aws-chunked checksum trailer and a checksum header.
//
// Memory model: encoders write into the caller's buffer (curl's upload buffer). TrailerEncoder and
// RawBodyEncoder read the source straight into that buffer and checksum the bytes there; SignedChunkEncoder
// needs a whole chunk to sign it first: it reads it into that buffer too when the whole framed chunk fits,
// and otherwise into one reused chunk buffer; HeaderChecksumPreread reuses one buffer. Nothing allocates
// after construction, whatever the object size. Framing rules: ../shared/s3-wire-protocol.md §2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "s3up/checksum.h"
#include "s3up/sigv4.h"

namespace s3up {

// A body that cannot be read as promised. Thrown by sources and encoders; the client turns it into a typed
// error and aborts the transfer, so fewer bytes than declared are never reported as an upload.
class BodyError : public std::runtime_error {
 public:
  enum class Kind {
    read_failed,           // the source reported an I/O error
    ended_early,           // the source ended before its declared size
    longer_than_declared,  // the source has more bytes than its declared size
    not_rewindable,        // a second pass (pre-read, retry) needs a rewind the source cannot do
    unknown_length,        // this path needs the size up front
    invalid_argument,      // e.g. chunk size below 8 KiB, range outside the file
  };
  BodyError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// ----------------------------------------------------------------------------------------------------------
// Sources

class BodySource {
 public:
  virtual ~BodySource() = default;
  // Reads up to dest.size() bytes into dest. Returns 0 only at the end of the data. Throws BodyError.
  virtual std::size_t read(std::span<std::byte> dest) = 0;
  // Total bytes from the start, when known before reading.
  virtual std::optional<std::uint64_t> size() const = 0;
  virtual bool can_rewind() const = 0;
  // Back to the first byte. Throws BodyError(not_rewindable) when can_rewind() is false.
  virtual void rewind() = 0;
  // An independent source for bytes [offset, offset + length) of this one, reading the same storage without
  // copying it (multipart parts, read in parallel); nullptr when this source cannot do that. The range must
  // not outlive this source.
  virtual std::unique_ptr<BodySource> range(std::uint64_t offset, std::uint64_t length) const {
    (void)offset;
    (void)length;
    return nullptr;
  }
};

// A non-owning view of bytes in memory; the caller keeps them alive for the upload.
class MemorySource final : public BodySource {
 public:
  explicit MemorySource(std::span<const std::byte> data) : data_(data) {}
  explicit MemorySource(std::string_view text) : data_(std::as_bytes(std::span(text.data(), text.size()))) {}

  std::size_t read(std::span<std::byte> dest) override;
  std::optional<std::uint64_t> size() const override { return data_.size(); }
  bool can_rewind() const override { return true; }
  void rewind() override { position_ = 0; }
  // A subspan: no copy. Throws BodyError(invalid_argument) for a range past the end.
  std::unique_ptr<BodySource> range(std::uint64_t offset, std::uint64_t length) const override;

 private:
  std::span<const std::byte> data_;
  std::size_t position_ = 0;
};

// A file, or a byte range of one, read with pread (so several sources may share one descriptor).
class FileSource final : public BodySource {
 public:
  // Opens path read-only. length defaults to the rest of the file after offset. Throws BodyError.
  explicit FileSource(const std::filesystem::path& path, std::uint64_t offset = 0,
                      std::optional<std::uint64_t> length = std::nullopt);
  // Uses fd without taking ownership. length defaults to the rest of the file after offset.
  FileSource(int fd, std::uint64_t offset, std::optional<std::uint64_t> length = std::nullopt);
  ~FileSource() override;
  FileSource(FileSource&& other) noexcept;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  FileSource& operator=(FileSource&&) = delete;

  std::size_t read(std::span<std::byte> dest) override;
  std::optional<std::uint64_t> size() const override { return length_; }
  bool can_rewind() const override { return true; }
  void rewind() override { position_ = 0; }
  // A FileSource on the same descriptor (borrowed, not owned), offset within this source's range. Throws
  // BodyError(invalid_argument) for a range past the end.
  std::unique_ptr<BodySource> range(std::uint64_t offset, std::uint64_t length) const override;

 private:
  int fd_ = -1;
  bool owns_fd_ = false;
  std::uint64_t offset_ = 0;
  std::uint64_t length_ = 0;
  std::uint64_t position_ = 0;
  std::string name_;  // for error messages
};

// A std::istream. Rewindable when the stream is seekable; its size is the given one, or measured by seeking
// to the end when the stream is seekable, else unknown.
class StreamSource final : public BodySource {
 public:
  explicit StreamSource(std::istream& stream, std::optional<std::uint64_t> size = std::nullopt);

  std::size_t read(std::span<std::byte> dest) override;
  std::optional<std::uint64_t> size() const override { return size_; }
  bool can_rewind() const override { return start_.has_value(); }
  void rewind() override;

 private:
  std::istream& stream_;
  std::optional<std::istream::pos_type> start_;
  std::optional<std::uint64_t> size_;
};

// A user-supplied read function. read returns the bytes written into dest, 0 at the end, or a negative
// value on error. rewind, when given, returns false if it could not rewind.
class CallbackSource final : public BodySource {
 public:
  using ReadFunction = std::function<std::ptrdiff_t(std::span<std::byte> dest)>;
  using RewindFunction = std::function<bool()>;

  explicit CallbackSource(ReadFunction read, std::optional<std::uint64_t> size = std::nullopt,
                          RewindFunction rewind = {});

  std::size_t read(std::span<std::byte> dest) override;
  std::optional<std::uint64_t> size() const override { return size_; }
  bool can_rewind() const override { return static_cast<bool>(rewind_); }
  void rewind() override;

 private:
  ReadFunction read_;
  std::optional<std::uint64_t> size_;
  RewindFunction rewind_;
};

// ----------------------------------------------------------------------------------------------------------
// Encoders: what curl's read callback pulls from.

inline constexpr std::size_t default_chunk_size = 64 * 1024;
inline constexpr std::size_t min_chunk_size = 8 * 1024;
// 128 KiB: it stays in L2 while it is checksummed, and upload() keeps one per part in flight, so it counts
// against the process's memory (README, Benchmarks: the pre-read speed and the cp RSS with 128 KiB and 1
// MiB).
inline constexpr std::size_t default_preread_buffer_size = 128 * 1024;

class BodyEncoder {
 public:
  virtual ~BodyEncoder() = default;
  // Bytes fill() will produce in all, known before the first one (Content-Length).
  virtual std::uint64_t encoded_length() const = 0;
  // Writes the next encoded bytes into dest and returns how many; 0 once the whole body has been produced.
  // Throws BodyError when the source fails, ends early or runs long.
  virtual std::size_t fill(std::span<std::byte> dest) = 0;
  // Starts over for a retry: rewinds the source and resets every checksum and signature chain.
  virtual void restart() = 0;
};

// The body as it is (header-checksum and no-checksum paths), checked against the declared size.
class RawBodyEncoder final : public BodyEncoder {
 public:
  explicit RawBodyEncoder(BodySource& source);  // throws BodyError(unknown_length)

  std::uint64_t encoded_length() const override { return length_; }
  std::size_t fill(std::span<std::byte> dest) override;
  void restart() override;

 private:
  BodySource& source_;
  std::uint64_t length_;
  std::uint64_t produced_ = 0;
};

// aws-chunked length for a body of decoded_length bytes (reference §2.6). trailer is the declared checksum
// trailer, if any; signed_chunks adds the chunk-signature extension and, with a trailer, the trailer
// signature.
std::uint64_t aws_chunked_length(std::uint64_t decoded_length, std::size_t chunk_size, bool signed_chunks,
                                 std::optional<ChecksumAlgorithm> trailer);

// STREAMING-UNSIGNED-PAYLOAD-TRAILER. The stages per chunk are chunk header → payload → CRLF, then the zero
// chunk, the trailer line and the final CRLF. Payload bytes are read from the source straight into dest and
// checksummed there. The full-chunk header is formatted once.
class TrailerEncoder final : public BodyEncoder {
 public:
  // checksum may be null: no trailer is declared and the body ends "0\r\n\r\n". Throws BodyError when the
  // source size is unknown or chunk_size < min_chunk_size.
  TrailerEncoder(BodySource& source, std::unique_ptr<Checksum> checksum,
                 std::size_t chunk_size = default_chunk_size);
  ~TrailerEncoder() override;

  std::uint64_t encoded_length() const override { return encoded_length_; }
  std::size_t fill(std::span<std::byte> dest) override;
  void restart() override;

  // The trailer value that was sent; set once the trailer has been produced.
  const std::optional<Digest>& trailer_checksum() const { return trailer_checksum_; }

 private:
  struct State;
  BodySource& source_;
  std::unique_ptr<Checksum> checksum_;
  std::size_t chunk_size_;
  std::uint64_t decoded_length_;
  std::uint64_t encoded_length_;
  std::optional<Digest> trailer_checksum_;
  std::unique_ptr<State> state_;  // framing state machine; fixed-size buffers, allocated once
};

// STREAMING-AWS4-HMAC-SHA256-PAYLOAD (no trailer) and STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER (with one).
// A chunk's signature covers its SHA-256, so each chunk is read whole and hashed and signed before its
// header is written: in place in the caller's buffer when the framed chunk fits, else in a reused buffer.
class SignedChunkEncoder final : public BodyEncoder {
 public:
  SignedChunkEncoder(BodySource& source, sigv4::ChunkSigner signer,
                     std::unique_ptr<Checksum> trailer_checksum, std::size_t chunk_size = default_chunk_size);
  ~SignedChunkEncoder() override;

  std::uint64_t encoded_length() const override { return encoded_length_; }
  std::size_t fill(std::span<std::byte> dest) override;
  void restart() override;

  const std::optional<Digest>& trailer_checksum() const { return trailer_checksum_; }

 private:
  struct State;
  BodySource& source_;
  sigv4::ChunkSigner signer_;
  std::unique_ptr<Checksum> checksum_;
  std::size_t chunk_size_;
  std::uint64_t decoded_length_;
  std::uint64_t encoded_length_;
  std::optional<Digest> trailer_checksum_;
  std::unique_ptr<State> state_;
};

// The header path: one pass over the whole source through one reused buffer, computing in that pass the
// checksum for the x-amz-checksum-* header, the payload SHA-256 for a signed payload and the MD5 for
// Content-MD5, as asked; then the source is rewound so RawBodyEncoder can stream it.
struct PrereadDigests {
  std::optional<Digest> checksum;
  std::optional<Digest> payload_sha256;
  std::optional<Digest> content_md5;
  std::uint64_t bytes = 0;
};

class HeaderChecksumPreread {
 public:
  explicit HeaderChecksumPreread(std::size_t buffer_size = default_preread_buffer_size);
  ~HeaderChecksumPreread();

  // Throws BodyError(not_rewindable), naming trailer mode as the way out, before reading anything from a
  // source that cannot rewind; BodyError(ended_early / longer_than_declared) when the bytes read differ from
  // the declared size.
  PrereadDigests run(BodySource& source, std::optional<ChecksumAlgorithm> checksum, bool payload_sha256,
                     bool content_md5);

 private:
  struct State;
  std::unique_ptr<State> state_;  // the buffer and the digest contexts, reused across runs
};

// ----------------------------------------------------------------------------------------------------------
// Where the checksum travels.

enum class ChecksumLocation {
  automatic,  // trailer for HTTPS endpoints known to accept trailers and non-empty bodies; header otherwise
  trailer,    // aws-chunked trailer
  header,     // x-amz-checksum-* header after a pre-read
  none,       // no checksum
};

enum class ChecksumCalculation {
  when_supported,  // always send a checksum (default algorithm CRC32), as the AWS SDKs do since 2025
  when_required,   // only when the caller asked for an algorithm
};

// "when_supported" / "when_required", any case (the AWS_REQUEST_CHECKSUM_CALCULATION values).
std::optional<ChecksumCalculation> parse_checksum_calculation(std::string_view text);
std::optional<ChecksumLocation> parse_checksum_location(std::string_view text);  // auto|trailer|header|none
std::string_view to_string(ChecksumLocation location);

// Where the checksum of one request travels and with which algorithm, as decided (the client decides it
// with the provider's profile).
struct ChecksumPlan {
  std::optional<ChecksumAlgorithm> algorithm;          // nullopt: no checksum
  ChecksumLocation location = ChecksumLocation::none;  // trailer, header or none; never automatic
};

inline constexpr ChecksumAlgorithm default_checksum_algorithm = ChecksumAlgorithm::crc32;

}  // namespace s3up
