// signing.cpp: credential scope, string to sign, signing key and signature (reference §3.1), the
// whole-request sign_request, and the x-amz-date format.
#include <chrono>
#include <cstdio>

#include "s3up/sigv4.h"

namespace s3up::sigv4 {
namespace {

std::span<const std::byte> as_bytes(std::string_view text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

std::array<std::byte, 32> hmac(std::span<const std::byte> key, std::string_view message) {
  return HmacSha256(key).mac(message);
}

}  // namespace

std::string CredentialScope::to_string() const {
  constexpr std::string_view terminator = "/aws4_request";
  std::string out;
  out.reserve(date.size() + region.size() + service.size() + 2 + terminator.size());
  out.append(date).append("/").append(region).append("/").append(service).append(terminator);
  return out;
}

std::string string_to_sign(std::string_view amz_date, const CredentialScope& scope,
                           std::string_view canonical_request) {
  std::string out;
  out.reserve(signing_algorithm.size() + amz_date.size() + 64 + 128);  // 64: the hex SHA-256; 128: the scope
  out += signing_algorithm;
  out += '\n';
  out += amz_date;
  out += '\n';
  out += scope.to_string();
  out += '\n';
  out += compute_checksum(ChecksumAlgorithm::sha256, canonical_request).hex();
  return out;
}

SigningKey derive_signing_key(std::string_view secret_access_key, const CredentialScope& scope) {
  const std::string secret = "AWS4" + std::string(secret_access_key);
  const auto date_key = hmac(as_bytes(secret), scope.date);
  const auto region_key = hmac(date_key, scope.region);
  const auto service_key = hmac(region_key, scope.service);
  return hmac(service_key, "aws4_request");
}

Signature sign(const SigningKey& key, std::string_view string_to_sign) {
  const auto mac = HmacSha256(key).mac(string_to_sign);
  Signature signature{};
  hex_encode_to(mac, signature);
  return signature;
}

SignedRequest sign_request(const RequestToSign& request, const Credentials& credentials,
                           const CredentialScope& scope, std::string_view amz_date) {
  SignedRequest out;
  out.canonical_request = canonical_request(request);
  out.string_to_sign = string_to_sign(amz_date, scope, out.canonical_request);
  out.signed_headers = signed_headers(request.headers);
  out.signing_key = derive_signing_key(credentials.secret_access_key, scope);
  out.signature = sign(out.signing_key, out.string_to_sign);
  out.authorization =
      authorization_header(credentials.access_key_id, scope, out.signed_headers, out.signature);
  return out;
}

std::string amz_date(std::int64_t unix_seconds) {
  using namespace std::chrono;
  const sys_seconds time{seconds{unix_seconds}};
  const sys_days day = floor<days>(time);
  const year_month_day ymd{day};
  const hh_mm_ss hms{time - day};
  char text[32];
  std::snprintf(text, sizeof text, "%04d%02u%02uT%02d%02d%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  return text;
}

}  // namespace s3up::sigv4
