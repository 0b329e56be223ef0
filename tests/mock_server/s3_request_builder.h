// s3_request_builder.h: hand-built S3 requests for the mock server tests, signed with the sigv4 module (the
// independent signer relative to the server's verifier), and the aws-chunked / HTTP chunked body encoders.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "raw_http_client.h"
#include "s3up/checksum.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

namespace s3up::test {

// Deterministic test bytes: byte i is (31 i + 7) mod 251. Expected digests in the tests were computed from
// the same formula with Python (hashlib, zlib and a bitwise CRC32C/CRC64NVME).
inline std::string pattern_bytes(std::size_t n) {
  std::string out(n, '\0');
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>((i * 31 + 7) % 251);
  return out;
}

// Digests of pattern_bytes(100000), computed with Python: hashlib.md5/sha1/sha256, zlib.crc32, and a bitwise
// reflected CRC32C (poly 0x82F63B78) / CRC64NVME (poly 0x9A6C9329AC4BC9B5) checked against "123456789".
inline constexpr const char* pattern_md5_hex = "c751c4ebba60bb18afab02f4ced56b32";
inline constexpr const char* pattern_md5_b64 = "x1HE67pguxivqwL0ztVrMg==";
inline constexpr const char* pattern_crc32 = "aBc2/A==";
inline constexpr const char* pattern_crc32c = "CKxK4Q==";
inline constexpr const char* pattern_crc64nvme = "45u8TkPxNdg=";
inline constexpr const char* pattern_sha1 = "2xDjQgfibHlZhSgFU3TwacVEFNc=";
inline constexpr const char* pattern_sha256_b64 = "CNBCzOq4A00IyHDnB/Mxysn0IyEERAa8zNFWxyWCKas=";
inline constexpr const char* pattern_sha256_hex =
    "08d042cceab8034d08c870e707f331cac9f42321044406bcccd156c7258229ab";

// Stored bytes (Server::object_data) as text, to compare with the string that was sent.
inline std::string as_string(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

struct RequestSpec {
  std::string method = "PUT";
  std::string path;  // raw (decoded) path, e.g. "/bucket/my key"
  std::vector<sigv4::QueryParameter> query;
  std::string payload_hash = std::string(sigv4::unsigned_payload);  // x-amz-content-sha256
  std::vector<sigv4::Header> headers;           // signed, besides host, x-amz-content-sha256, x-amz-date
  std::vector<sigv4::Header> unsigned_headers;  // sent but not signed
  std::string host;                             // default "127.0.0.1:<port>"
  std::string access_key = mock::default_access_key;
  std::string secret_key = mock::default_secret_key;
  std::string region = "us-east-1";
  std::string amz_date;           // default: now
  bool chunked_transfer = false;  // Transfer-Encoding: chunked instead of Content-Length
  bool omit_content_length = false;
};

struct BuiltRequest {
  std::string fields;  // request line and header fields, without body framing
  bool chunked_transfer = false;
  bool omit_content_length = false;
  sigv4::SigningKey key{};
  sigv4::CredentialScope scope;
  std::string amz_date;
  sigv4::Signature seed{};  // the Authorization signature, which chunk signatures chain from

  // The complete head for a body of that many bytes on the wire (Content-Length is not signed).
  std::string head(std::uint64_t body_length) const {
    std::string out = fields;
    if (chunked_transfer) {
      out += "Transfer-Encoding: chunked\r\n";
    } else if (!omit_content_length) {
      out += "Content-Length: " + std::to_string(body_length) + "\r\n";
    }
    return out + "\r\n";
  }
};

inline std::string now_amz_date() {
  auto now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  return sigv4::amz_date(now.count());
}

inline BuiltRequest build_request(const RequestSpec& spec, std::uint16_t port) {
  BuiltRequest built;
  built.chunked_transfer = spec.chunked_transfer;
  built.omit_content_length = spec.omit_content_length;
  built.amz_date = spec.amz_date.empty() ? now_amz_date() : spec.amz_date;
  built.scope.date = built.amz_date.substr(0, 8);
  built.scope.region = spec.region;
  std::string host = spec.host.empty() ? "127.0.0.1:" + std::to_string(port) : spec.host;

  sigv4::RequestToSign to_sign;
  to_sign.method = spec.method;
  to_sign.path = spec.path;
  to_sign.query = spec.query;
  to_sign.headers = {
      {"host", host}, {"x-amz-content-sha256", spec.payload_hash}, {"x-amz-date", built.amz_date}};
  for (const auto& header : spec.headers) to_sign.headers.push_back(header);
  to_sign.payload_hash = spec.payload_hash;
  sigv4::Credentials credentials{spec.access_key, spec.secret_key, ""};
  auto signed_request = sigv4::sign_request(to_sign, credentials, built.scope, built.amz_date);
  built.key = sigv4::derive_signing_key(spec.secret_key, built.scope);
  built.seed = signed_request.signature;

  std::string target = sigv4::uri_encode(spec.path, false);
  if (!spec.query.empty()) {
    target += '?';
    for (std::size_t i = 0; i < spec.query.size(); ++i) {
      if (i > 0) target += '&';
      target +=
          sigv4::uri_encode(spec.query[i].name, true) + "=" + sigv4::uri_encode(spec.query[i].value, true);
    }
  }
  std::string& fields = built.fields;
  fields = spec.method + " " + target + " HTTP/1.1\r\n";
  for (const auto& header : to_sign.headers) fields += header.name + ": " + header.value + "\r\n";
  for (const auto& header : spec.unsigned_headers) fields += header.name + ": " + header.value + "\r\n";
  fields += "Authorization: " + signed_request.authorization + "\r\n";
  return built;
}

inline std::string hex_size(std::size_t n) {
  char text[32];
  std::snprintf(text, sizeof text, "%zx", n);
  return text;
}

// STREAMING-UNSIGNED-PAYLOAD-TRAILER framing (§2.2). trailer: "name:value" or "" for none.
inline std::string unsigned_aws_chunked(std::string_view data, std::size_t chunk_size,
                                        std::string_view trailer) {
  std::string out;
  for (std::size_t at = 0; at < data.size(); at += chunk_size) {
    std::string_view chunk = data.substr(at, chunk_size);
    out += hex_size(chunk.size()) + "\r\n";
    out += chunk;
    out += "\r\n";
  }
  out += "0\r\n";
  if (!trailer.empty()) out += std::string(trailer) + "\r\n";
  out += "\r\n";
  return out;
}

// Signed chunks (§2.3/§2.4), chained from the request's seed signature. trailer: "name:value" or "" for none;
// with_trailer_signature adds the x-amz-trailer-signature line (signed-trailer mode).
inline std::string signed_aws_chunked(std::string_view data, std::size_t chunk_size,
                                      const BuiltRequest& request, std::string_view trailer,
                                      bool with_trailer_signature) {
  sigv4::ChunkSigner signer(request.key, request.amz_date, request.scope, request.seed);
  std::string out;
  auto add_chunk = [&](std::string_view chunk) {
    auto signature = signer.sign_chunk(compute_checksum(ChecksumAlgorithm::sha256, chunk));
    out +=
        hex_size(chunk.size()) + ";chunk-signature=" + std::string(sigv4::to_string_view(signature)) + "\r\n";
    out += chunk;
    if (!chunk.empty()) out += "\r\n";
  };
  for (std::size_t at = 0; at < data.size(); at += chunk_size) add_chunk(data.substr(at, chunk_size));
  add_chunk({});
  if (!trailer.empty()) out += std::string(trailer) + "\r\n";
  if (with_trailer_signature) {
    std::string canonical = trailer.empty() ? std::string() : std::string(trailer) + "\n";
    out += "x-amz-trailer-signature:" + std::string(sigv4::to_string_view(signer.sign_trailer(canonical))) +
           "\r\n";
  }
  out += "\r\n";
  return out;
}

// HTTP/1.1 Transfer-Encoding: chunked framing of a body, in pieces of `piece` bytes.
inline std::string http_chunked(std::string_view body, std::size_t piece) {
  std::string out;
  for (std::size_t at = 0; at < body.size(); at += piece) {
    std::string_view part = body.substr(at, piece);
    out += hex_size(part.size()) + "\r\n";
    out += part;
    out += "\r\n";
  }
  out += "0\r\n\r\n";
  return out;
}

// A PutObject spec for an aws-chunked mode (§2.5 headers). trailer_name: the x-amz-trailer value, or "".
inline RequestSpec streaming_spec(std::string path, std::string_view mode, std::uint64_t decoded_length,
                                  std::string_view trailer_name) {
  RequestSpec spec;
  spec.path = std::move(path);
  spec.payload_hash = std::string(mode);
  spec.headers = {{"content-encoding", "aws-chunked"},
                  {"x-amz-decoded-content-length", std::to_string(decoded_length)}};
  if (!trailer_name.empty()) spec.headers.push_back({"x-amz-trailer", std::string(trailer_name)});
  return spec;
}

// The aws-chunked body for the request's streaming mode. trailer: "name:value" or "".
inline std::string aws_chunked_body(const BuiltRequest& built, std::string_view mode, std::string_view data,
                                    std::size_t chunk_size, std::string_view trailer) {
  if (mode == sigv4::streaming_unsigned_payload_trailer)
    return unsigned_aws_chunked(data, chunk_size, trailer);
  return signed_aws_chunked(data, chunk_size, built, trailer,
                            mode == sigv4::streaming_signed_payload_trailer);
}

// One request on a fresh connection: head + body, then the response.
inline HttpResponse send_request(const mock::Server& server, const std::string& head, const std::string& body,
                                 bool head_request = false) {
  RawHttpConnection connection(server.port(), server.certificate_pem());
  connection.send(head + body);
  auto response = connection.read_response(head_request);
  if (!response) throw std::runtime_error("the server closed the connection without a response");
  return *response;
}

}  // namespace s3up::test
