// text_encoding.cpp: the text forms S3 and SigV4 use for digests: standard padded base64 (RFC 4648 §4)
// and lowercase hex. Decoding is strict because a lenient decoder would accept checksums S3 rejects.
// Also the ASCII case folding and trimming every module uses for protocol tokens, and the UTF-8 decoder.
#include <stdexcept>

#include "s3up/checksum.h"

namespace s3up {
namespace {

constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view hex_digits = "0123456789abcdef";

// Value of a base64 character, or -1 for anything outside the standard alphabet (including '=').
constexpr int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::size_t base64_encoded_size(std::size_t bytes) {
  return (bytes + 2) / 3 * 4;
}

std::size_t base64_encode_to(std::span<const std::byte> in, std::span<char> out) {
  const std::size_t needed = base64_encoded_size(in.size());
  if (out.size() < needed) throw std::length_error("base64_encode_to: output buffer too small");
  std::size_t o = 0;
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const auto v = (std::to_integer<std::uint32_t>(in[i]) << 16) |
                   (std::to_integer<std::uint32_t>(in[i + 1]) << 8) |
                   std::to_integer<std::uint32_t>(in[i + 2]);
    out[o++] = base64_alphabet[(v >> 18) & 63];
    out[o++] = base64_alphabet[(v >> 12) & 63];
    out[o++] = base64_alphabet[(v >> 6) & 63];
    out[o++] = base64_alphabet[v & 63];
  }
  const std::size_t rest = in.size() - i;
  if (rest > 0) {
    std::uint32_t v = std::to_integer<std::uint32_t>(in[i]) << 16;
    if (rest == 2) v |= std::to_integer<std::uint32_t>(in[i + 1]) << 8;
    out[o++] = base64_alphabet[(v >> 18) & 63];
    out[o++] = base64_alphabet[(v >> 12) & 63];
    out[o++] = rest == 2 ? base64_alphabet[(v >> 6) & 63] : '=';
    out[o++] = '=';
  }
  return o;
}

std::string base64_encode(std::span<const std::byte> in) {
  std::string out(base64_encoded_size(in.size()), '\0');
  base64_encode_to(in, out);
  return out;
}

std::optional<Digest> base64_decode_digest(std::string_view text) {
  // Every digest we carry fits in max_digest_size bytes, i.e. at most 44 base64 characters.
  if (text.empty() || text.size() % 4 != 0 || text.size() > base64_encoded_size(max_digest_size))
    return std::nullopt;
  std::size_t padding = 0;
  if (text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  std::array<std::byte, max_digest_size + 2> bytes{};
  std::size_t size = 0;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const std::size_t data_chars = last ? 4 - padding : 4;
    std::uint32_t v = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      int d = 0;
      if (j < data_chars) {
        d = base64_value(text[i + j]);
        if (d < 0) return std::nullopt;  // bad character, or '=' before the end
      }
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    // Canonical form only: the bits below the last encoded byte must be zero ("QQ==" not "QR==").
    if (data_chars == 2 && (v & 0xffff) != 0) return std::nullopt;
    if (data_chars == 3 && (v & 0xff) != 0) return std::nullopt;
    const std::size_t out_bytes = data_chars - 1;
    for (std::size_t k = 0; k < out_bytes; ++k) bytes[size++] = std::byte((v >> (16 - 8 * k)) & 0xff);
  }
  if (size > max_digest_size) return std::nullopt;
  return Digest(std::span<const std::byte>(bytes.data(), size));
}

void hex_encode_to(std::span<const std::byte> in, std::span<char> out) {
  if (out.size() < 2 * in.size()) throw std::length_error("hex_encode_to: output buffer too small");
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto b = std::to_integer<unsigned>(in[i]);
    out[2 * i] = hex_digits[b >> 4];
    out[2 * i + 1] = hex_digits[b & 15];
  }
}

std::string hex_encode(std::span<const std::byte> in) {
  std::string out(2 * in.size(), '\0');
  hex_encode_to(in, out);
  return out;
}

namespace {

constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

std::string ascii_lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

std::string_view trim_http_whitespace(std::string_view text) {
  auto is_whitespace = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && is_whitespace(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_whitespace(text.back())) text.remove_suffix(1);
  return text;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string_view trim_ascii_whitespace(std::string_view text) {
  constexpr std::string_view whitespace = " \t\n\v\f\r";
  const auto begin = text.find_first_not_of(whitespace);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(whitespace) - begin + 1);
}

std::size_t utf8_sequence_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  // RFC 3629's table: the second byte's range is narrower after E0, ED, F0 and F4.
  unsigned char min_second = 0x80, max_second = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;  // C0 and C1 could only start overlong forms of ASCII
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) min_second = 0xA0;  // overlong
    if (lead == 0xED) max_second = 0x9F;  // UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) min_second = 0x90;  // overlong
    if (lead == 0xF4) max_second = 0x8F;  // above U+10FFFF
  } else {
    return 0;  // a continuation byte, C0, C1 or F5-FF
  }
  if (text.size() < length || byte(1) < min_second || byte(1) > max_second) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

}  // namespace s3up
