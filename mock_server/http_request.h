// http_request.h: the HTTP/1.1 request head (request line and header fields) as received, its parser with
// the size limit, and the case-insensitive lookups the rest of the server uses.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "s3up/checksum.h"  // ascii_iequals, ascii_lowercase

namespace s3up::mock {

class BufferedReader;

// S3 refuses more than 8 KiB of header fields with RequestHeaderSectionTooLarge (its error document says
// <MaxSizeAllowed>8192</MaxSizeAllowed>); so does the mock, counting each field line with its CRLF. The
// request line may take up to 8 KiB more (a 1024-byte key percent-encodes to 3 KiB): the whole head is
// buffered within max_header_block, a fixed bound on what one request head can make the server hold.
inline constexpr std::size_t max_header_fields = 8192;
inline constexpr std::size_t max_header_block = 16 * 1024;  // request line + header fields + blank line

struct HttpHeader {
  std::string name;   // as received
  std::string value;  // leading and trailing blanks removed
};

struct HttpRequest {
  std::string method;
  std::string target;     // request-target as received, e.g. "/bucket/my%20key?x-id=PutObject"
  std::string version;    // "HTTP/1.1" or "HTTP/1.0"
  std::string raw_path;   // target before '?', still percent-encoded
  std::string raw_query;  // target after '?', still percent-encoded ("" if none)
  std::vector<HttpHeader> headers;

  const HttpHeader* find(std::string_view name) const;  // first field with that name, any case
  std::size_t count(std::string_view name) const;
  // All fields of that name joined with ",", as SigV4 canonicalises repeated headers; nullopt if absent.
  std::optional<std::string> value(std::string_view name) const;
  bool keep_alive() const;
  bool expects_continue() const;
};

enum class HeadStatus { ok, closed, too_large, malformed };  // too_large: either limit above

// Reads one request head. `closed` means the client closed (or the server stopped) before sending a byte.
HeadStatus read_request_head(BufferedReader& reader, HttpRequest& request);

// True if the comma-separated list (a header value) contains `token`, compared case-insensitively.
bool has_list_token(std::string_view list, std::string_view token);

}  // namespace s3up::mock
