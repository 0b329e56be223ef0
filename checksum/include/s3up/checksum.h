// s3up/checksum.h: the checksum module. It owns the S3 checksum algorithms (CRC32, CRC32C, CRC64NVME,
// SHA1, SHA256, and MD5 for Content-MD5) behind one small interface, and the text forms S3 and SigV4 use:
// base64 of the digest bytes (CRCs as big-endian integers) and lowercase hex.
//
// No allocation after construction: update() works in place, finish() returns a fixed-size Digest, and the
// SHA1/SHA256/MD5 states live inside their objects (no OpenSSL context to re-create on reset()). CRC kernels
// sit behind plain functions so that a hardware implementation can replace the portable one without
// touching callers.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace s3up {

enum class ChecksumAlgorithm { crc32, crc32c, crc64nvme, sha1, sha256, md5 };

inline constexpr std::size_t max_digest_size = 32;  // SHA-256

// A finished digest in the byte order S3 expects (CRCs big-endian). Fixed size: copying never allocates.
class Digest {
 public:
  Digest() = default;
  explicit Digest(std::span<const std::byte> bytes);  // at most max_digest_size bytes

  std::span<const std::byte> bytes() const { return {bytes_.data(), size_}; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  std::string base64() const;  // the x-amz-checksum-* / Content-MD5 text
  std::string hex() const;     // lowercase, as SigV4 writes hashes

  // Writes base64() into out without allocating; returns the number of characters (see base64_length).
  std::size_t base64_to(std::span<char> out) const;
  // Writes hex() into out (2 * size() characters) without allocating.
  void hex_to(std::span<char> out) const;

  friend bool operator==(const Digest& a, const Digest& b) {
    return a.size_ == b.size_ && std::equal(a.bytes_.begin(), a.bytes_.begin() + a.size_, b.bytes_.begin());
  }

 private:
  std::array<std::byte, max_digest_size> bytes_{};
  std::size_t size_ = 0;
};

// The streaming interface every algorithm implements. finish() ends a run; call reset() before reusing.
class Checksum {
 public:
  virtual ~Checksum() = default;
  virtual ChecksumAlgorithm algorithm() const = 0;
  virtual void update(std::span<const std::byte> data) = 0;
  virtual Digest finish() = 0;
  virtual void reset() = 0;

  void update(std::string_view text) { update(std::as_bytes(std::span(text.data(), text.size()))); }
};

std::unique_ptr<Checksum> make_checksum(ChecksumAlgorithm algorithm);

// One-shot convenience for tests and small inputs.
Digest compute_checksum(ChecksumAlgorithm algorithm, std::span<const std::byte> data);
Digest compute_checksum(ChecksumAlgorithm algorithm, std::string_view data);

// CRC kernels. Like zlib's crc32(crc, buf, len), they take and return the finished (post-xorout) CRC:
// start from 0 (the CRC of nothing) and feed the result back in to chain parts, so
// crc32_update(crc32_update(0, a), b) == crc32_update(0, a + b) and equals Crc32::value().
// The portable versions are the reference; accelerated ones must agree with them bit for bit.
std::uint32_t crc32_update(std::uint32_t crc, std::span<const std::byte> data);
std::uint32_t crc32c_update(std::uint32_t crc, std::span<const std::byte> data);
std::uint64_t crc64nvme_update(std::uint64_t crc, std::span<const std::byte> data);

// The CRC of a followed by b, from crc(a), crc(b) and b's length alone, as zlib's crc32_combine: how a
// multipart upload's FULL_OBJECT checksum is made from its parts' (reference §6.3). O(log length_b).
std::uint32_t crc32_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::uint64_t length_b);
std::uint32_t crc32c_combine(std::uint32_t crc_a, std::uint32_t crc_b, std::uint64_t length_b);
std::uint64_t crc64nvme_combine(std::uint64_t crc_a, std::uint64_t crc_b, std::uint64_t length_b);
// The same on Digests (big-endian CRC bytes). nullopt for algorithms that cannot be combined (SHA, MD5) or
// digests of the wrong size.
std::optional<Digest> combine_crc(ChecksumAlgorithm algorithm, const Digest& a, const Digest& b,
                                  std::uint64_t length_b);

class Crc32 final : public Checksum {
 public:
  ChecksumAlgorithm algorithm() const override { return ChecksumAlgorithm::crc32; }
  void update(std::span<const std::byte> data) override;
  Digest finish() override;
  void reset() override { value_ = 0; }
  std::uint32_t value() const { return value_; }  // the CRC of what was fed so far (post-xorout)
  using Checksum::update;

 private:
  std::uint32_t value_ = 0;
};

class Crc32c final : public Checksum {
 public:
  ChecksumAlgorithm algorithm() const override { return ChecksumAlgorithm::crc32c; }
  void update(std::span<const std::byte> data) override;
  Digest finish() override;
  void reset() override { value_ = 0; }
  std::uint32_t value() const { return value_; }
  using Checksum::update;

 private:
  std::uint32_t value_ = 0;
};

class Crc64Nvme final : public Checksum {
 public:
  ChecksumAlgorithm algorithm() const override { return ChecksumAlgorithm::crc64nvme; }
  void update(std::span<const std::byte> data) override;
  Digest finish() override;
  void reset() override { value_ = 0; }
  std::uint64_t value() const { return value_; }
  using Checksum::update;

 private:
  std::uint64_t value_ = 0;
};

// SHA1, SHA256 and MD5 through OpenSSL's low-level hash functions: the same assembly as EVP (SHA-NI where
// the CPU has it) but over a state held inside the object, so nothing allocates, not even reset(). The
// state is the OpenSSL *_CTX struct itself (size checked against OpenSSL's at compile time, see
// message_digests.cpp); copying an object copies the running hash, which is how HmacSha256 keeps its
// pre-keyed inner and outer hashes.
class Sha1 final : public Checksum {
 public:
  Sha1();
  ChecksumAlgorithm algorithm() const override { return ChecksumAlgorithm::sha1; }
  void update(std::span<const std::byte> data) override;
  Digest finish() override;
  void reset() override;
  using Checksum::update;

 private:
  alignas(8) std::array<std::byte, 96> state_{};  // OpenSSL's SHA_CTX
};

class Sha256 final : public Checksum {
 public:
  Sha256();
  ChecksumAlgorithm algorithm() const override { return ChecksumAlgorithm::sha256; }
  void update(std::span<const std::byte> data) override;
  Digest finish() override;
  void reset() override;
  using Checksum::update;

 private:
  alignas(8) std::array<std::byte, 112> state_{};  // OpenSSL's SHA256_CTX
};

class Md5 final : public Checksum {
 public:
  Md5();
  ChecksumAlgorithm algorithm() const override { return ChecksumAlgorithm::md5; }
  void update(std::span<const std::byte> data) override;
  Digest finish() override;
  void reset() override;
  using Checksum::update;

 private:
  alignas(8) std::array<std::byte, 92> state_{};  // OpenSSL's MD5_CTX
};

// Names. algorithm_name: "CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256", "MD5"
// (x-amz-sdk-checksum-algorithm).
std::string_view algorithm_name(ChecksumAlgorithm algorithm);
// header_name: "x-amz-checksum-crc32" ... (lowercase; also the trailer name); "content-md5" for MD5.
std::string_view header_name(ChecksumAlgorithm algorithm);
// xml_element_name: "ChecksumCRC32" ... "ChecksumSHA256", the multipart XML elements; "ChecksumMD5" for MD5,
// which S3 has no element for and refuses, as it should.
std::string_view xml_element_name(ChecksumAlgorithm algorithm);
// Accepts the algorithm names case-insensitively ("crc32", "CRC64NVME", "sha256", "md5").
std::optional<ChecksumAlgorithm> parse_algorithm(std::string_view name);
// Maps "x-amz-checksum-crc32c" (any case) back to its algorithm; not Content-MD5.
std::optional<ChecksumAlgorithm> algorithm_from_header(std::string_view header);
std::size_t digest_size(ChecksumAlgorithm algorithm);
std::size_t base64_length(ChecksumAlgorithm algorithm);  // padded base64 length of the digest

// ASCII case folding for protocol tokens (header names, algorithm names, literals such as "chunked"):
// locale-independent, as HTTP and SigV4 require. Every module compares tokens through these two.
bool ascii_iequals(std::string_view a, std::string_view b);
std::string ascii_lowercase(std::string_view text);
// Strips HTTP optional whitespace (spaces and tabs) from both ends, as around a header value.
std::string_view trim_http_whitespace(std::string_view text);
// Strips ASCII whitespace (space, \t, \n, \v, \f, \r) from both ends, as Python's str.strip() does for
// ASCII text (configuration files).
std::string_view trim_ascii_whitespace(std::string_view text);
// The length of the well-formed UTF-8 sequence at the start of text (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF): 1 for an ASCII byte, 2 to 4 for a multi-byte sequence, 0 when the
// bytes there are not one (or text is empty). The one UTF-8 decoder of the project: key validation, JSON
// output.
std::size_t utf8_sequence_length(std::string_view text);
// The text with & < > " ' written as XML entities: safe inside an element or an attribute value (ETags hold
// quotes). The one escaper of the client's and the mock server's XML documents.
std::string xml_escape(std::string_view text);

// Text encodings used by S3 and SigV4.
std::size_t base64_encoded_size(std::size_t bytes);
std::size_t base64_encode_to(std::span<const std::byte> in, std::span<char> out);  // returns chars written
std::string base64_encode(std::span<const std::byte> in);
// Strict standard base64 with padding; nullopt on any invalid character, length or padding.
std::optional<Digest> base64_decode_digest(std::string_view text);
std::string hex_encode(std::span<const std::byte> in);
void hex_encode_to(std::span<const std::byte> in, std::span<char> out);  // out.size() >= 2 * in.size()

}  // namespace s3up
