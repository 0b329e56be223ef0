// chunk_signer.cpp: the chained signatures of an aws-chunked body: chunk signatures (reference §3.3) and
// the trailer signature (§3.4). The string to sign is rebuilt in one reserved buffer, so signing a chunk
// makes no C++ allocation.
#include <stdexcept>

#include "s3up/sigv4.h"

namespace s3up::sigv4 {
namespace {

constexpr std::string_view chunk_algorithm = "AWS4-HMAC-SHA256-PAYLOAD";
constexpr std::string_view trailer_algorithm = "AWS4-HMAC-SHA256-TRAILER";
constexpr std::size_t hex_sha256_size = 64;

}  // namespace

ChunkSigner::ChunkSigner(const SigningKey& key, std::string_view amz_date, const CredentialScope& scope,
                         const Signature& seed_signature)
    : hmac_(key),
      seed_(seed_signature),
      previous_(seed_signature),
      amz_date_(amz_date),
      scope_(scope.to_string()) {
  // The longest string to sign is the chunk one: algorithm, date, scope, then three 64-char hashes.
  string_to_sign_.reserve(chunk_algorithm.size() + amz_date_.size() + scope_.size() + 3 * hex_sha256_size +
                          5);
}

Signature ChunkSigner::sign_chunk(const Digest& chunk_sha256) {
  if (chunk_sha256.size() != 32) throw std::invalid_argument("ChunkSigner::sign_chunk: not a SHA-256 digest");
  // "<empty-string hash>\n<chunk hash>": the empty hash stands for the (absent) chunk extensions.
  std::array<char, 2 * hex_sha256_size + 1> last_lines{};
  std::copy(empty_sha256_hex.begin(), empty_sha256_hex.end(), last_lines.begin());
  last_lines[hex_sha256_size] = '\n';
  chunk_sha256.hex_to(std::span(last_lines).subspan(hex_sha256_size + 1));
  return sign_with_prefix(chunk_algorithm, {last_lines.data(), last_lines.size()});
}

Signature ChunkSigner::sign_trailer(std::string_view canonical_trailers) {
  trailer_sha256_.reset();
  trailer_sha256_.update(canonical_trailers);
  const Digest hash = trailer_sha256_.finish();
  std::array<char, hex_sha256_size> hex{};
  hash.hex_to(hex);
  return sign_with_prefix(trailer_algorithm, {hex.data(), hex.size()});
}

void ChunkSigner::restart() {
  previous_ = seed_;
}

Signature ChunkSigner::sign_with_prefix(std::string_view algorithm_line, std::string_view last_lines) {
  string_to_sign_.clear();  // keeps the reserved capacity
  string_to_sign_ += algorithm_line;
  string_to_sign_ += '\n';
  string_to_sign_ += amz_date_;
  string_to_sign_ += '\n';
  string_to_sign_ += scope_;
  string_to_sign_ += '\n';
  string_to_sign_ += to_string_view(previous_);
  string_to_sign_ += '\n';
  string_to_sign_ += last_lines;  // no trailing LF
  const auto mac = hmac_.mac(string_to_sign_);
  Signature signature{};
  hex_encode_to(mac, signature);
  previous_ = signature;
  return signature;
}

}  // namespace s3up::sigv4
