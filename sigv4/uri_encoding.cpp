// uri_encoding.cpp: SigV4 URI encoding (RFC 3986 unreserved characters stay, every other byte becomes
// %XX in upper case) and its inverse, which the server uses to recover the raw path and query.
#include "s3up/sigv4.h"

namespace s3up::sigv4 {
namespace {

constexpr std::string_view upper_hex = "0123456789ABCDEF";

constexpr bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.' || c == '~';
}

constexpr int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string uri_encode(std::string_view text, bool encode_slash) {
  std::string out;
  out.reserve(text.size() * 3);
  append_uri_encoded(out, text, encode_slash);
  return out;
}

void append_uri_encoded(std::string& out, std::string_view text, bool encode_slash) {
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_unreserved(c) || (c == '/' && !encode_slash)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(upper_hex[c >> 4]);
      out.push_back(upper_hex[c & 15]);
    }
  }
}

std::optional<std::string> uri_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      // '+' is a literal plus: S3 paths and SigV4 query strings are not form-encoded.
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_value(text[i + 1]);
    const int low = hex_value(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  return out;
}

}  // namespace s3up::sigv4
