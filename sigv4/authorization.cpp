// authorization.cpp: the Authorization header: building it (client) and parsing it strictly (server).
// We emit ", " between components as aws-c-auth does; the parser also accepts the documented ",".
#include "s3up/sigv4.h"

namespace s3up::sigv4 {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (;;) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

bool all_digits(std::string_view text) {
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

bool is_lowercase_hex(std::string_view text) {
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// "<akid>/<YYYYMMDD>/<region>/<service>/aws4_request"
bool parse_credential(std::string_view credential, ParsedAuthorization& out) {
  const auto parts = split(credential, '/');
  if (parts.size() != 5 || parts[4] != "aws4_request") return false;
  for (auto part : parts)
    if (part.empty()) return false;
  if (parts[1].size() != 8 || !all_digits(parts[1])) return false;
  out.access_key_id = parts[0];
  out.scope.date = parts[1];
  out.scope.region = parts[2];
  out.scope.service = parts[3];
  return true;
}

bool parse_signed_headers(std::string_view list, ParsedAuthorization& out) {
  for (auto name : split(list, ';')) {
    if (name.empty()) return false;
    std::string lower(name);
    for (char& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c == ' ' || c == '\t' || c == ':' || c == ',' || c == '=') return false;
    }
    out.signed_headers.push_back(std::move(lower));
  }
  return true;
}

}  // namespace

std::string authorization_header(std::string_view access_key_id, const CredentialScope& scope,
                                 std::string_view signed_headers, const Signature& signature) {
  std::string out;
  out.reserve(signing_algorithm.size() + access_key_id.size() + signed_headers.size() + signature.size() +
              128);
  out += signing_algorithm;
  out += " Credential=";
  out += access_key_id;
  out += '/';
  out += scope.to_string();
  out += ", SignedHeaders=";
  out += signed_headers;
  out += ", Signature=";
  out += to_string_view(signature);
  return out;
}

std::optional<ParsedAuthorization> parse_authorization(std::string_view header_value) {
  std::string_view text = trim_http_whitespace(header_value);
  if (!text.starts_with(signing_algorithm)) return std::nullopt;
  text.remove_prefix(signing_algorithm.size());
  if (text.empty() || text.front() != ' ') return std::nullopt;

  ParsedAuthorization out;
  bool have_credential = false;
  bool have_signed_headers = false;
  bool have_signature = false;
  for (auto component : split(text, ',')) {
    component = trim_http_whitespace(component);
    const auto equals = component.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    const auto key = component.substr(0, equals);
    const auto value = component.substr(equals + 1);
    // Each component exactly once: a repeated one would make "which one was verified" ambiguous.
    if (key == "Credential" && !have_credential) {
      if (!parse_credential(value, out)) return std::nullopt;
      have_credential = true;
    } else if (key == "SignedHeaders" && !have_signed_headers) {
      if (!parse_signed_headers(value, out)) return std::nullopt;
      have_signed_headers = true;
    } else if (key == "Signature" && !have_signature) {
      if (value.size() != 64 || !is_lowercase_hex(value)) return std::nullopt;
      out.signature = value;
      have_signature = true;
    } else {
      return std::nullopt;
    }
  }
  if (!have_credential || !have_signed_headers || !have_signature) return std::nullopt;
  return out;
}

}  // namespace s3up::sigv4
