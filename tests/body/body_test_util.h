// tests/body/body_test_util.h: test-side helpers for the body suite: deterministic payloads, a scriptable
// BodySource, a straightforward reference aws-chunked encoder and parser (string concatenation, OpenSSL
// one-shot HMAC/SHA-256, written independently of the encoders under test) and fill-loop drivers.
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "s3up/body.h"

namespace body_test {

inline std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

// Deterministic pseudo-random payload (fixed seed), so failures reproduce.
inline std::string pattern(std::size_t size, std::uint32_t seed = 1) {
  std::mt19937 random(seed);
  std::string data(size, '\0');
  for (char& c : data) c = static_cast<char>(random() & 0xff);
  return data;
}

// A BodySource whose declared size, real content, read granularity and rewind ability are set by the test,
// and which counts the calls it gets.
class ScriptedSource final : public s3up::BodySource {
 public:
  ScriptedSource(std::string data, std::optional<std::uint64_t> declared, std::size_t max_read = SIZE_MAX,
                 bool rewindable = true)
      : data_(std::move(data)), declared_(declared), max_read_(max_read), rewindable_(rewindable) {}

  std::size_t read(std::span<std::byte> dest) override {
    ++reads;
    std::size_t n = std::min({dest.size(), data_.size() - position_, max_read_});
    std::copy_n(reinterpret_cast<const std::byte*>(data_.data()) + position_, n, dest.begin());
    position_ += n;
    return n;
  }
  std::optional<std::uint64_t> size() const override { return declared_; }
  bool can_rewind() const override { return rewindable_; }
  void rewind() override {
    if (!rewindable_) throw s3up::BodyError(s3up::BodyError::Kind::not_rewindable, "scripted: no rewind");
    ++rewinds;
    position_ = 0;
  }

  int reads = 0;
  int rewinds = 0;

 private:
  std::string data_;
  std::optional<std::uint64_t> declared_;
  std::size_t position_ = 0;
  std::size_t max_read_;
  bool rewindable_;
};

// Pulls the whole encoded body out of an encoder, with dest sizes from next_size(), checking that fill()
// never overruns dest and never returns 0 before the end.
inline std::string drain(s3up::BodyEncoder& encoder, const std::function<std::size_t()>& next_size) {
  std::string out;
  std::vector<std::byte> buffer;
  for (;;) {
    std::size_t size = next_size();
    buffer.assign(size, std::byte{0});
    std::size_t n = encoder.fill(buffer);
    if (n > size) throw std::logic_error("fill overran its buffer");
    if (n == 0) break;
    out.append(reinterpret_cast<const char*>(buffer.data()), n);
  }
  return out;
}

inline std::string drain(s3up::BodyEncoder& encoder, std::size_t dest_size) {
  return drain(encoder, [dest_size] { return dest_size; });
}

inline std::string drain_random(s3up::BodyEncoder& encoder, std::uint32_t seed, std::size_t max_size) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> size(1, max_size);
  return drain(encoder, [&] { return size(random); });
}

inline std::string hex(const unsigned char* bytes, std::size_t size) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (std::size_t i = 0; i < size; ++i) {
    text += digits[bytes[i] >> 4];
    text += digits[bytes[i] & 0xf];
  }
  return text;
}

inline std::string sha256_hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  return hex(digest, sizeof digest);
}

inline std::string hmac_sha256_hex(const std::array<unsigned char, 32>& key, std::string_view message) {
  unsigned char mac[32];
  unsigned int mac_size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &mac_size);
  return hex(mac, mac_size);
}

inline std::string hex_of(std::uint64_t value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[value & 0xf]);
    value >>= 4;
  } while (value != 0);
  return text;
}

inline std::array<unsigned char, 32> bytes_from_hex(std::string_view text) {
  std::array<unsigned char, 32> bytes{};
  for (std::size_t i = 0; i < 32; ++i)
    bytes[i] = static_cast<unsigned char>(std::stoi(std::string(text.substr(2 * i, 2)), nullptr, 16));
  return bytes;
}

// The §4 example's signing inputs. The key is reference §4.1's S3 example signing key
// (20130524/us-east-1/s3).
inline constexpr std::string_view example_key_hex =
    "dbb893acc010964918f1fd433add87c70e8b0db6be30c1fbeafefa5ec6ba8378";
inline constexpr std::string_view example_date = "20130524T000000Z";
inline constexpr std::string_view example_scope = "20130524/us-east-1/s3/aws4_request";

inline s3up::sigv4::Signature signature_from(std::string_view hex_text) {
  s3up::sigv4::Signature signature{};
  std::copy_n(hex_text.begin(), signature.size(), signature.begin());
  return signature;
}

inline s3up::sigv4::ChunkSigner example_signer(std::string_view seed_hex) {
  std::array<unsigned char, 32> raw = bytes_from_hex(example_key_hex);
  s3up::sigv4::SigningKey key{};
  std::transform(raw.begin(), raw.end(), key.begin(), [](unsigned char b) { return std::byte{b}; });
  s3up::sigv4::CredentialScope scope{"20130524", "us-east-1", "s3"};
  return s3up::sigv4::ChunkSigner(key, example_date, scope, signature_from(seed_hex));
}

// The reference encoder: the aws-chunked body of reference §2.2-2.4, built the obvious way. seed_hex empty
// means unsigned chunks (STREAMING-UNSIGNED-PAYLOAD-TRAILER).
inline std::string reference_encode(std::string_view payload, std::size_t chunk_size,
                                    std::optional<s3up::ChecksumAlgorithm> trailer,
                                    std::string_view seed_hex = {}) {
  const bool is_signed = !seed_hex.empty();
  const std::array<unsigned char, 32> key = bytes_from_hex(example_key_hex);
  const std::string empty_hash = sha256_hex("");
  std::string previous(seed_hex);
  auto sign_chunk = [&](std::string_view data) {
    std::string string_to_sign = "AWS4-HMAC-SHA256-PAYLOAD\n" + std::string(example_date) + "\n" +
                                 std::string(example_scope) + "\n" + previous + "\n" + empty_hash + "\n" +
                                 sha256_hex(data);
    previous = hmac_sha256_hex(key, string_to_sign);
    return previous;
  };

  std::string body;
  std::vector<std::string_view> chunks;
  for (std::size_t at = 0; at < payload.size(); at += chunk_size)
    chunks.push_back(payload.substr(at, chunk_size));
  chunks.push_back({});  // the zero chunk
  for (std::string_view chunk : chunks) {
    body += hex_of(chunk.size());
    if (is_signed) body += ";chunk-signature=" + sign_chunk(chunk);
    body += "\r\n";
    if (!chunk.empty()) body += std::string(chunk) + "\r\n";
  }
  if (trailer) {
    std::string line =
        std::string(s3up::header_name(*trailer)) + ":" + s3up::compute_checksum(*trailer, payload).base64();
    body += line + "\r\n";
    if (is_signed) {
      std::string string_to_sign = "AWS4-HMAC-SHA256-TRAILER\n" + std::string(example_date) + "\n" +
                                   std::string(example_scope) + "\n" + previous + "\n" +
                                   sha256_hex(line + "\n");
      body += "x-amz-trailer-signature:" + hmac_sha256_hex(key, string_to_sign) + "\r\n";
    }
  }
  body += "\r\n";
  return body;
}

// A parsed aws-chunked body (test-side decoder, strict about CRLFs and the end).
struct Decoded {
  std::string payload;
  std::vector<std::size_t> chunk_sizes;         // data chunks, without the zero chunk
  std::vector<std::string> chunk_signatures;    // including the zero chunk's, when signed
  std::map<std::string, std::string> trailers;  // name -> value, including x-amz-trailer-signature
};

inline Decoded decode_aws_chunked(std::string_view body) {
  Decoded decoded;
  std::size_t at = 0;
  auto line = [&] {
    std::size_t end = body.find("\r\n", at);
    if (end == std::string_view::npos) throw std::runtime_error("unterminated line at " + std::to_string(at));
    std::string_view text = body.substr(at, end - at);
    at = end + 2;
    return text;
  };
  for (;;) {
    std::string_view header = line();
    std::string_view size_text = header.substr(0, header.find(';'));
    if (size_text.empty() || size_text.find_first_not_of("0123456789abcdef") != std::string_view::npos) {
      throw std::runtime_error("bad chunk size field: " + std::string(header));
    }
    if (size_text.size() > 1 && size_text[0] == '0') throw std::runtime_error("leading zero in chunk size");
    std::size_t size = std::stoull(std::string(size_text), nullptr, 16);
    if (header.size() > size_text.size()) {
      std::string_view extension = header.substr(size_text.size());
      if (extension.substr(0, 17) != ";chunk-signature=" || extension.size() != 17 + 64) {
        throw std::runtime_error("bad chunk extension: " + std::string(extension));
      }
      decoded.chunk_signatures.emplace_back(extension.substr(17));
    }
    if (size == 0) break;
    if (body.size() - at < size + 2) throw std::runtime_error("chunk data runs past the body");
    decoded.payload.append(body.substr(at, size));
    decoded.chunk_sizes.push_back(size);
    at += size;
    if (body.substr(at, 2) != "\r\n") throw std::runtime_error("chunk data not followed by CRLF");
    at += 2;
  }
  for (;;) {
    std::string_view trailer = line();
    if (trailer.empty()) break;
    std::size_t colon = trailer.find(':');
    if (colon == std::string_view::npos) throw std::runtime_error("bad trailer line");
    decoded.trailers[std::string(trailer.substr(0, colon))] = std::string(trailer.substr(colon + 1));
  }
  if (at != body.size()) throw std::runtime_error("bytes after the final CRLF");
  return decoded;
}

inline const std::vector<std::optional<s3up::ChecksumAlgorithm>>& trailer_algorithms() {
  static const std::vector<std::optional<s3up::ChecksumAlgorithm>> all = {std::nullopt,
                                                                          s3up::ChecksumAlgorithm::crc32,
                                                                          s3up::ChecksumAlgorithm::crc32c,
                                                                          s3up::ChecksumAlgorithm::crc64nvme,
                                                                          s3up::ChecksumAlgorithm::sha1,
                                                                          s3up::ChecksumAlgorithm::sha256};
  return all;
}

inline std::unique_ptr<s3up::Checksum> checksum_for(std::optional<s3up::ChecksumAlgorithm> algorithm) {
  return algorithm ? s3up::make_checksum(*algorithm) : nullptr;
}

inline std::string name_of(std::optional<s3up::ChecksumAlgorithm> algorithm) {
  return algorithm ? std::string(s3up::algorithm_name(*algorithm)) : "no trailer";
}

// Runs f and returns the BodyError kind it threw; fails the test if it threw nothing.
template <typename F>
s3up::BodyError::Kind error_kind(F&& f, std::string* message = nullptr) {
  try {
    f();
  } catch (const s3up::BodyError& error) {
    if (message) *message = error.what();
    return error.kind();
  }
  throw std::logic_error("expected a BodyError");
}

}  // namespace body_test
