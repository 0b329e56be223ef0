// validation.cpp: S3's bucket naming rules, object key limits and header values, enforced before a request is
// built so that a name S3 would refuse (or text that would corrupt the request line or headers) never reaches
// the wire.
#include "client/validation.h"

#include <array>
#include <string>
#include <string_view>

#include "client/error.h"
#include "s3up/checksum.h"  // utf8_sequence_length

namespace s3up {
namespace {

Error invalid(std::string_view what, std::string_view name, std::string_view why) {
  return make_error(
      Error::Kind::invalid_argument, what == "bucket" ? "InvalidBucketName" : "InvalidKey",
      "invalid " + std::string(what) + " name \"" + std::string(name) + "\": " + std::string(why));
}

// CR and LF would end the line early; the other controls are refused by S3 and by HTTP itself.
bool is_control(char c) {
  auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7F;
}

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// "192.168.5.4": four dot-separated runs of digits.
bool looks_like_ipv4(std::string_view name) {
  int dots = 0;
  bool digits_only = true;
  for (char c : name) {
    if (c == '.') {
      ++dots;
    } else if (c < '0' || c > '9') {
      digits_only = false;
    }
  }
  return digits_only && dots == 3;
}

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. S3 keys are UTF-8;
// other bytes would be percent-encoded into a URI that S3 refuses or, worse, stores under a name no other
// tool can spell. Returns the offset of the first bad byte, or npos.
std::size_t invalid_utf8_at(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_sequence_length(text.substr(at));
    if (length == 0) return at;
    at += length;
  }
  return std::string_view::npos;
}

// Prefixes and suffixes S3 reserves (access points, Object Lambda, directory and table buckets...).
constexpr std::array<std::string_view, 3> reserved_prefixes = {"xn--", "sthree-", "amzn-s3-demo-"};
constexpr std::array<std::string_view, 5> reserved_suffixes = {"-s3alias", "--ol-s3", ".mrap", "--x-s3",
                                                               "--table-s3"};

}  // namespace

std::optional<Error> validate_bucket(std::string_view bucket) {
  if (bucket.size() < 3 || bucket.size() > 63)
    return invalid("bucket", bucket, "must be 3 to 63 characters long");
  for (char c : bucket) {
    if (!is_lower_alnum(c) && c != '.' && c != '-') {
      return invalid("bucket", bucket, "only lowercase letters, digits, dots and hyphens are allowed");
    }
  }
  if (!is_lower_alnum(bucket.front()) || !is_lower_alnum(bucket.back())) {
    return invalid("bucket", bucket, "must begin and end with a letter or digit");
  }
  if (bucket.find("..") != std::string_view::npos) return invalid("bucket", bucket, "two adjacent dots");
  if (looks_like_ipv4(bucket)) return invalid("bucket", bucket, "must not be formatted as an IP address");
  for (std::string_view prefix : reserved_prefixes) {
    if (bucket.starts_with(prefix))
      return invalid("bucket", bucket, "reserved prefix " + std::string(prefix));
  }
  for (std::string_view suffix : reserved_suffixes) {
    if (bucket.ends_with(suffix)) return invalid("bucket", bucket, "reserved suffix " + std::string(suffix));
  }
  return std::nullopt;
}

std::optional<Error> validate_key(std::string_view key) {
  if (key.empty()) return invalid("key", key, "must not be empty");
  if (key.size() > 1024) {
    return invalid("key", key.substr(0, 64), "longer than 1024 bytes (" + std::to_string(key.size()) + ")");
  }
  for (char c : key) {
    if (is_control(c)) {
      return invalid(
          "key", "",
          "contains a control character (byte " + std::to_string(static_cast<unsigned char>(c)) + ")");
    }
  }
  if (std::size_t at = invalid_utf8_at(key); at != std::string_view::npos) {
    return invalid("key", "", "not valid UTF-8 (at byte " + std::to_string(at) + ")");
  }
  return std::nullopt;
}

std::optional<Error> validate_header_value(std::string_view name, std::string_view value) {
  for (char c : value) {
    if (is_control(c) && c != '\t') {
      return make_error(Error::Kind::invalid_argument, "InvalidArgument",
                        std::string(name) + " contains a control character");
    }
  }
  return std::nullopt;
}

}  // namespace s3up
