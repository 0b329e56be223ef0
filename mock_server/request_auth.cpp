// request_auth.cpp: the server side of SigV4 header authentication.
#include "request_auth.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "http_request.h"

namespace s3up::mock {

namespace {

constexpr std::int64_t max_skew_seconds = 15 * 60;

// "YYYYMMDDTHHMMSSZ" -> UNIX seconds.
std::optional<std::int64_t> parse_amz_date(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') return std::nullopt;
  for (std::size_t i = 0; i < 15; ++i)
    if (i != 8 && (text[i] < '0' || text[i] > '9')) return std::nullopt;
  auto number = [&](std::size_t at, std::size_t digits) {
    int value = 0;
    for (std::size_t i = 0; i < digits; ++i) value = value * 10 + (text[at + i] - '0');
    return value;
  };
  std::tm tm{};
  tm.tm_year = number(0, 4) - 1900;
  tm.tm_mon = number(4, 2) - 1;
  tm.tm_mday = number(6, 2);
  tm.tm_hour = number(9, 2);
  tm.tm_min = number(11, 2);
  tm.tm_sec = number(13, 2);
  if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60)
    return std::nullopt;
  return static_cast<std::int64_t>(::timegm(&tm));
}

// "41 57 53 34 ..." as S3 prints <StringToSignBytes> and <CanonicalRequestBytes>.
std::string spaced_hex(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3);
  char byte[4];
  for (unsigned char c : text) {
    std::snprintf(byte, sizeof byte, "%02x", c);
    if (!out.empty()) out += ' ';
    out += byte;
  }
  return out;
}

S3Error malformed_authorization(std::string_view message) {
  return s3_error(400, "AuthorizationHeaderMalformed", message);
}

}  // namespace

std::optional<S3Error> verify_request_signature(const HttpRequest& request, const std::string& path,
                                                const std::vector<sigv4::QueryParameter>& query,
                                                const ServerOptions& options, VerifiedAuth& verified) {
  auto authorization = request.value("authorization");
  if (!authorization) {
    for (const auto& parameter : query)
      if (ascii_iequals(parameter.name, "X-Amz-Signature"))
        return s3_error(501, "NotImplemented", "Presigned URLs are not supported by this mock server");
    return s3_error(403, "AccessDenied", "Access Denied");
  }
  auto parsed = sigv4::parse_authorization(*authorization);
  if (!parsed) {
    return malformed_authorization(
        "The authorization header is malformed; the authorization header requires three components: "
        "Credential, "
        "SignedHeaders, and Signature.");
  }
  if (parsed->access_key_id != options.access_key) {
    S3Error error = s3_error(403, "InvalidAccessKeyId",
                             "The AWS Access Key Id you provided does not exist in our records.");
    error.details.emplace_back("AWSAccessKeyId", parsed->access_key_id);
    return error;
  }
  if (parsed->scope.region != options.region) {
    S3Error error =
        malformed_authorization("The authorization header is malformed; the region '" + parsed->scope.region +
                                "' is wrong; expecting '" + options.region + "'");
    error.details.emplace_back("Region", options.region);
    return error;
  }
  if (parsed->scope.service != "s3") {
    return malformed_authorization("The authorization header is malformed; incorrect service '" +
                                   parsed->scope.service + "'. This endpoint belongs to 's3'.");
  }

  auto amz_date = request.value("x-amz-date");
  auto request_time = amz_date ? parse_amz_date(*amz_date) : std::nullopt;
  if (!request_time)
    return s3_error(403, "AccessDenied", "AWS authentication requires a valid Date or x-amz-date header");
  if (parsed->scope.date != amz_date->substr(0, 8)) {
    return malformed_authorization(
        "The authorization header is malformed; Invalid credential date. Date is not the same as "
        "X-Amz-Date.");
  }
  if (options.check_clock_skew) {
    std::int64_t now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    if (*request_time - now > max_skew_seconds || now - *request_time > max_skew_seconds) {
      S3Error error = s3_error(403, "RequestTimeTooSkewed",
                               "The difference between the request time and the current time is too large.");
      error.details.emplace_back("RequestTime", *amz_date);
      error.details.emplace_back("ServerTime", sigv4::amz_date(now));
      error.details.emplace_back("MaxAllowedSkewMilliseconds", std::to_string(max_skew_seconds * 1000));
      return error;
    }
  }

  auto content_sha256 = request.value("x-amz-content-sha256");
  if (!content_sha256) {
    return s3_error(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
  }

  // S3 refuses x-amz-* headers the signature does not cover: they could be changed in flight.
  auto is_signed = [&](std::string_view name) {
    for (const auto& signed_name : parsed->signed_headers)
      if (ascii_iequals(signed_name, name)) return true;
    return false;
  };
  std::vector<std::string> not_signed;
  if (!is_signed("host")) not_signed.push_back("host");
  for (const auto& header : request.headers) {
    std::string name = ascii_lowercase(header.name);
    if (!name.starts_with("x-amz-") || is_signed(name)) continue;
    if (std::find(not_signed.begin(), not_signed.end(), name) == not_signed.end()) not_signed.push_back(name);
  }
  if (!not_signed.empty()) {
    S3Error error =
        s3_error(403, "AccessDenied", "There were headers present in the request which were not signed");
    std::string list;
    for (const auto& name : not_signed) list += (list.empty() ? "" : ", ") + name;
    error.details.emplace_back("HeadersNotSigned", list);
    return error;
  }

  sigv4::RequestToSign to_sign;
  to_sign.method = request.method;
  to_sign.path = path;
  to_sign.query = query;
  for (const auto& name : parsed->signed_headers)
    to_sign.headers.push_back({name, request.value(name).value_or("")});
  to_sign.payload_hash = *content_sha256;

  std::string canonical_request = sigv4::canonical_request(to_sign);
  std::string string_to_sign = sigv4::string_to_sign(*amz_date, parsed->scope, canonical_request);
  sigv4::SigningKey key = sigv4::derive_signing_key(options.secret_key, parsed->scope);
  sigv4::Signature expected = sigv4::sign(key, string_to_sign);
  if (parsed->signature.size() != expected.size() ||
      CRYPTO_memcmp(parsed->signature.data(), expected.data(), expected.size()) != 0) {
    S3Error error =
        s3_error(403, "SignatureDoesNotMatch",
                 "The request signature we calculated does not match the signature you provided. Check "
                 "your key and signing method.");
    error.details.emplace_back("AWSAccessKeyId", parsed->access_key_id);
    error.details.emplace_back("StringToSign", string_to_sign);
    error.details.emplace_back("SignatureProvided", parsed->signature);
    error.details.emplace_back("StringToSignBytes", spaced_hex(string_to_sign));
    error.details.emplace_back("CanonicalRequest", canonical_request);
    error.details.emplace_back("CanonicalRequestBytes", spaced_hex(canonical_request));
    return error;
  }

  verified.signing_key = key;
  verified.scope = parsed->scope;
  verified.amz_date = *amz_date;
  verified.seed_signature = expected;
  return std::nullopt;
}

}  // namespace s3up::mock
