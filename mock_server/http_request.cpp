// http_request.cpp: parses the HTTP/1.1 request line and header fields, within max_header_block and
// max_header_fields.
#include "http_request.h"

#include <algorithm>
#include <cstring>

#include "connection.h"

namespace s3up::mock {

bool has_list_token(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    if (ascii_iequals(trim_http_whitespace(list.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

const HttpHeader* HttpRequest::find(std::string_view name) const {
  for (const auto& header : headers)
    if (ascii_iequals(header.name, name)) return &header;
  return nullptr;
}

std::size_t HttpRequest::count(std::string_view name) const {
  return static_cast<std::size_t>(std::count_if(
      headers.begin(), headers.end(), [&](const HttpHeader& h) { return ascii_iequals(h.name, name); }));
}

std::optional<std::string> HttpRequest::value(std::string_view name) const {
  std::optional<std::string> joined;
  for (const auto& header : headers) {
    if (!ascii_iequals(header.name, name)) continue;
    if (joined) {
      *joined += ',';
      *joined += header.value;
    } else {
      joined = header.value;
    }
  }
  return joined;
}

bool HttpRequest::keep_alive() const {
  auto connection = value("connection");
  if (version == "HTTP/1.0") return connection && has_list_token(*connection, "keep-alive");
  return !(connection && has_list_token(*connection, "close"));
}

bool HttpRequest::expects_continue() const {
  auto expect = value("expect");
  return expect && ascii_iequals(trim_http_whitespace(*expect), "100-continue");
}

namespace {

bool is_token_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

bool parse_request_line(std::string_view line, HttpRequest& request) {
  std::size_t sp1 = line.find(' ');
  if (sp1 == std::string_view::npos || sp1 == 0) return false;
  std::size_t sp2 = line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || sp2 == sp1 + 1) return false;
  std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (!std::all_of(method.begin(), method.end(), is_token_char)) return false;
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return false;
  // Only origin-form ("/path?query"): S3 clients never send absolute-form to an endpoint.
  if (target.front() != '/') return false;
  for (char c : target)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  request.method = method;
  request.target = target;
  request.version = version;
  std::size_t question = target.find('?');
  request.raw_path = target.substr(0, question);
  request.raw_query = question == std::string_view::npos ? std::string_view() : target.substr(question + 1);
  return true;
}

bool parse_header_line(std::string_view line, HttpRequest& request) {
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  std::string_view name = line.substr(0, colon);
  // No blanks before the colon and no obsolete line folding (RFC 9112 §5.1-5.2): both enable smuggling.
  if (!std::all_of(name.begin(), name.end(), is_token_char)) return false;
  std::string_view value = trim_http_whitespace(line.substr(colon + 1));
  for (char c : value)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) return false;
  request.headers.push_back({std::string(name), std::string(value)});
  return true;
}

}  // namespace

HeadStatus read_request_head(BufferedReader& reader, HttpRequest& request) {
  // Find the blank line that ends the head, reading more as needed, without exceeding the limit.
  std::size_t scanned = 0;
  std::size_t head_length = 0;
  for (;;) {
    auto data = reader.buffered();
    // RFC 9112 §2.2: ignore empty lines before the request line (some clients send a CRLF after a body).
    std::size_t skip = 0;
    while (skip < data.size() && (data[skip] == std::byte{'\r'} || data[skip] == std::byte{'\n'})) ++skip;
    if (skip > 0) {
      reader.consume(skip);
      scanned = 0;
      continue;
    }
    const char* text = reinterpret_cast<const char*>(data.data());
    std::string_view view(text, data.size());
    std::size_t from = scanned >= 3 ? scanned - 3 : 0;
    std::size_t end = view.find("\r\n\r\n", from);
    if (end != std::string_view::npos) {
      head_length = end + 4;
      break;
    }
    scanned = view.size();
    if (scanned >= max_header_block) return HeadStatus::too_large;
    if (!reader.fill()) return scanned == 0 ? HeadStatus::closed : HeadStatus::malformed;
  }
  if (head_length > max_header_block) return HeadStatus::too_large;

  std::string_view head(reinterpret_cast<const char*>(reader.buffered().data()), head_length - 2);
  std::size_t request_line = head.find("\r\n");
  if (request_line != std::string_view::npos && head.size() - (request_line + 2) > max_header_fields) {
    reader.consume(head_length);
    return HeadStatus::too_large;
  }
  request = HttpRequest{};
  bool first = true;
  bool ok = true;
  while (ok && !head.empty()) {
    std::size_t crlf = head.find("\r\n");
    std::string_view line = head.substr(0, crlf);
    head.remove_prefix(crlf + 2);
    if (line.find('\n') != std::string_view::npos || line.find('\r') != std::string_view::npos)
      ok = false;
    else if (first)
      ok = parse_request_line(line, request);
    else
      ok = parse_header_line(line, request);
    first = false;
  }
  reader.consume(head_length);
  return ok ? HeadStatus::ok : HeadStatus::malformed;
}

}  // namespace s3up::mock
