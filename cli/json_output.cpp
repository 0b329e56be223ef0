// cli/json_output.cpp: JSON string escaping and the upload result object of `s3up cp --output json`.
#include "json_output.h"

#include <cstdint>
#include <cstdio>

#include "s3up/checksum.h"  // utf8_sequence_length

namespace s3up::cli {
namespace {

void append_field(std::string& out, std::string_view name, std::string_view json_value) {
  if (out.size() > 1) out += ',';
  out += json_string(name);
  out += ':';
  out += json_value;
}

std::string number(std::uint64_t value) {
  return std::to_string(value);
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = utf8_sequence_length(text.substr(i));
      if (length == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
  return out;
}

std::string upload_json(std::string_view bucket, std::string_view key, const UploadResult& result,
                        double seconds) {
  const bool has_checksum = result.checksum_algorithm.has_value();
  char seconds_text[32];
  std::snprintf(seconds_text, sizeof seconds_text, "%.3f", seconds);

  std::string out = "{";
  append_field(out, "bucket", json_string(bucket));
  append_field(out, "key", json_string(key));
  append_field(out, "bytes", number(result.bytes));
  append_field(out, "seconds", seconds_text);
  append_field(out, "etag", json_string(result.etag));
  append_field(out, "checksum_algorithm",
               has_checksum ? json_string(algorithm_name(*result.checksum_algorithm)) : "null");
  append_field(out, "checksum", has_checksum ? json_string(result.checksum) : "null");
  append_field(out, "checksum_type",
               has_checksum && result.checksum_type ? json_string(to_string(*result.checksum_type)) : "null");
  append_field(out, "checksum_location",
               has_checksum ? json_string(to_string(result.checksum_location)) : "null");
  append_field(out, "parts", number(static_cast<std::uint64_t>(result.parts)));
  append_field(out, "attempts", number(static_cast<std::uint64_t>(result.attempts)));
  out += '}';
  return out;
}

}  // namespace s3up::cli
