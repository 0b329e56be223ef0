// s3up/sigv4.h: the SigV4 module, the protocol helper shared by the client (which signs) and the mock
// server (which verifies). It owns the S3 flavour of AWS Signature Version 4: canonical request, credential
// scope, string to sign, signing key, the Authorization header, and the chained signatures of aws-chunked
// bodies (chunk and trailer signatures). Terms follow the AWS documentation; see
// ../shared/s3-wire-protocol.md §3 for the rules and §4 for the test vectors.
//
// S3 rules that differ from generic SigV4: the path is URI-encoded once and never normalised.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "s3up/checksum.h"

namespace s3up::sigv4 {

inline constexpr std::string_view signing_algorithm = "AWS4-HMAC-SHA256";
inline constexpr std::string_view unsigned_payload = "UNSIGNED-PAYLOAD";
inline constexpr std::string_view streaming_unsigned_payload_trailer = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
inline constexpr std::string_view streaming_signed_payload = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
inline constexpr std::string_view streaming_signed_payload_trailer =
    "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
inline constexpr std::string_view empty_sha256_hex =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
inline constexpr std::string_view chunk_signature_extension = ";chunk-signature=";  // 17 bytes
inline constexpr std::string_view trailer_signature_name = "x-amz-trailer-signature";

struct Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  // empty when none; sent and signed as x-amz-security-token
};

using SigningKey = std::array<std::byte, 32>;
using Signature = std::array<char, 64>;  // lowercase hex, as it appears on the wire

inline std::string_view to_string_view(const Signature& signature) {
  return {signature.data(), signature.size()};
}

struct Header {
  std::string name;   // any case; canonicalised to lowercase
  std::string value;  // trimmed and inner space runs collapsed when canonicalised
};

struct QueryParameter {
  std::string name;   // raw (decoded) text
  std::string value;  // raw (decoded) text; empty for "?uploads"
};

// What the signature covers. Only the headers listed here are signed; the caller sends exactly these.
struct RequestToSign {
  std::string method;
  std::string path;  // raw (decoded) absolute path, e.g. "/bucket/my key"; encoded once by canonical_uri
  std::vector<QueryParameter> query;
  std::vector<Header> headers;
  std::string payload_hash;  // lowercase hex SHA-256, UNSIGNED-PAYLOAD or a streaming literal
};

// "<YYYYMMDD>/<region>/s3/aws4_request" and the date it belongs to.
struct CredentialScope {
  std::string date;  // YYYYMMDD
  std::string region;
  std::string service = "s3";

  std::string to_string() const;
};

// RFC 3986 unreserved characters stay; every other byte becomes %XX (uppercase hex). '/' stays unless
// encode_slash (query names and values encode it).
std::string uri_encode(std::string_view text, bool encode_slash);
void append_uri_encoded(std::string& out, std::string_view text, bool encode_slash);
// Decodes %XX; nullopt on a malformed escape. Used by the server to recover the raw path and query.
std::optional<std::string> uri_decode(std::string_view text);

std::string canonical_uri(std::string_view path);
std::string canonical_query_string(const std::vector<QueryParameter>& query);
std::string canonical_headers(const std::vector<Header>& headers);  // ends with "\n" after the last header
std::string signed_headers(const std::vector<Header>& headers);     // "host;x-amz-content-sha256;x-amz-date"
std::string canonical_request(const RequestToSign& request);

std::string string_to_sign(std::string_view amz_date, const CredentialScope& scope,
                           std::string_view canonical_request);

SigningKey derive_signing_key(std::string_view secret_access_key, const CredentialScope& scope);

Signature sign(const SigningKey& key, std::string_view string_to_sign);

// "AWS4-HMAC-SHA256 Credential=<akid>/<scope>, SignedHeaders=<list>, Signature=<hex>"
std::string authorization_header(std::string_view access_key_id, const CredentialScope& scope,
                                 std::string_view signed_headers, const Signature& signature);

// A parsed Authorization header (server side). Accepts ", " and "," separators.
struct ParsedAuthorization {
  std::string access_key_id;
  CredentialScope scope;
  std::vector<std::string> signed_headers;  // lowercase, in the order given
  std::string signature;
};
std::optional<ParsedAuthorization> parse_authorization(std::string_view header_value);

// Signs a whole request: canonical request → string to sign → signature. Returned pieces let callers log
// the canonical request (never the key) and build the Authorization header.
struct SignedRequest {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signed_headers;
  Signature signature;
  std::string authorization;  // the Authorization header value
  SigningKey signing_key;     // kept for the chunk signer of a streaming body; never log it
};
SignedRequest sign_request(const RequestToSign& request, const Credentials& credentials,
                           const CredentialScope& scope, std::string_view amz_date);

// HMAC-SHA256 that keys once: the constructor absorbs the padded key into an inner and an outer SHA-256
// state, and mac() copies those states (plain structs) and finishes them. No allocation after construction.
class HmacSha256 {
 public:
  explicit HmacSha256(std::span<const std::byte> key);
  std::array<std::byte, 32> mac(std::span<const std::byte> message);
  std::array<std::byte, 32> mac(std::string_view message) {
    return mac(std::as_bytes(std::span(message.data(), message.size())));
  }

 private:
  Sha256 inner_;  // has absorbed key ^ ipad
  Sha256 outer_;  // has absorbed key ^ opad
};

// The signature chain of an aws-chunked body (reference §3.3–3.4). Each chunk signature covers the previous
// signature, so chunks must be signed in order, ending with the zero-length chunk and then, in trailer mode,
// the trailer. Allocates only in the constructor; restart() rewinds the chain to the seed for a retry.
class ChunkSigner {
 public:
  ChunkSigner(const SigningKey& key, std::string_view amz_date, const CredentialScope& scope,
              const Signature& seed_signature);

  // The signature of the next chunk, given the SHA-256 of its data bytes (the empty hash for the zero chunk).
  Signature sign_chunk(const Digest& chunk_sha256);
  // The trailer signature, chained from the zero-chunk signature; canonical_trailers is "name:value\n"...
  Signature sign_trailer(std::string_view canonical_trailers);
  void restart();

  const Signature& previous_signature() const { return previous_; }

 private:
  Signature sign_with_prefix(std::string_view algorithm_line, std::string_view last_lines);

  HmacSha256 hmac_;
  Signature seed_;
  Signature previous_;
  std::string string_to_sign_;  // reused buffer, reserved once
  std::string amz_date_;
  std::string scope_;
  Sha256 trailer_sha256_;
};

// "x-amz-date" form of a UNIX time: YYYYMMDDTHHMMSSZ (UTC).
std::string amz_date(std::int64_t unix_seconds);

}  // namespace s3up::sigv4
