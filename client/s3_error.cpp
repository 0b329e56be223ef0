// s3_error.cpp: S3's XML <Error> documents (reference §7.1) and the Errors built from an HTTP answer.
// A deliberately small reader: S3 error bodies are flat, so only the root and its direct children matter.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "client/error.h"
#include "client/http_exchange.h"
#include "client/s3_error.h"
#include "s3up/client.h"

namespace s3up {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

void skip_space(std::string_view text, std::size_t& at) {
  while (at < text.size() && is_space(text[at])) ++at;
}

// Skips the prolog: the XML declaration, processing instructions, comments, a doctype and whitespace.
// Returns false when the text ends inside one of them.
bool skip_prolog(std::string_view text, std::size_t& at) {
  for (;;) {
    skip_space(text, at);
    std::string_view rest = text.substr(at);
    std::string_view close;
    if (rest.starts_with("<?")) {
      close = "?>";
    } else if (rest.starts_with("<!--")) {
      close = "-->";
    } else if (rest.starts_with("<!")) {
      close = ">";
    } else {
      return true;
    }
    std::size_t end = text.find(close, at + 2);
    if (end == std::string_view::npos) return false;
    at = end + close.size();
  }
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x110000) {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Replaces the five predefined entities and character references; CDATA sections are copied as they are.
// Anything unrecognised is kept literally rather than dropped, so no message text is lost.
std::string unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    if (text.substr(at).starts_with("<![CDATA[")) {
      std::size_t end = text.find("]]>", at + 9);
      if (end == std::string_view::npos) end = text.size();
      out.append(text.substr(at + 9, end - at - 9));
      at = end + 3;
      continue;
    }
    char c = text[at];
    if (c != '&') {
      out.push_back(c);
      ++at;
      continue;
    }
    std::size_t semi = text.find(';', at);
    if (semi == std::string_view::npos || semi - at > 10) {
      out.push_back(c);
      ++at;
      continue;
    }
    std::string_view entity = text.substr(at + 1, semi - at - 1);
    if (entity == "amp") {
      out.push_back('&');
    } else if (entity == "lt") {
      out.push_back('<');
    } else if (entity == "gt") {
      out.push_back('>');
    } else if (entity == "quot") {
      out.push_back('"');
    } else if (entity == "apos") {
      out.push_back('\'');
    } else if (entity.size() > 1 && entity[0] == '#') {
      bool hex = entity[1] == 'x' || entity[1] == 'X';
      std::string_view digits = entity.substr(hex ? 2 : 1);
      std::uint32_t cp = 0;
      bool valid = !digits.empty();
      for (char d : digits) {
        int v = -1;
        if (d >= '0' && d <= '9') v = d - '0';
        if (hex && d >= 'a' && d <= 'f') v = d - 'a' + 10;
        if (hex && d >= 'A' && d <= 'F') v = d - 'A' + 10;
        if (v < 0) valid = false;
        if (!valid) break;
        cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(v);
      }
      if (!valid) {
        out.append(text.substr(at, semi - at + 1));
      } else {
        append_utf8(out, cp);
      }
    } else {
      out.append(text.substr(at, semi - at + 1));
    }
    at = semi + 1;
  }
  return out;
}

std::string_view tag_name(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && !is_space(text[end]) && text[end] != '>' && text[end] != '/') ++end;
  return text.substr(at, end - at);
}

}  // namespace

std::optional<S3ErrorBody> parse_s3_error(std::string_view xml) {
  std::size_t at = 0;
  if (!skip_prolog(xml, at)) return std::nullopt;
  if (at >= xml.size() || xml[at] != '<' || tag_name(xml, at + 1) != "Error") return std::nullopt;
  std::size_t root_end = xml.find('>', at);
  if (root_end == std::string_view::npos) return std::nullopt;
  S3ErrorBody body;
  if (xml[root_end - 1] == '/') return body;  // <Error/>
  at = root_end + 1;

  // Walk the direct children of <Error>. A child's text runs to its own closing tag; S3 escapes '<' inside
  // values (StringToSign, CanonicalRequest), so a closing tag cannot appear early.
  for (;;) {
    std::size_t open = xml.find('<', at);
    if (open == std::string_view::npos) return std::nullopt;  // truncated: no </Error>
    std::string_view rest = xml.substr(open);
    if (rest.starts_with("</"))
      return tag_name(xml, open + 2) == "Error" ? std::optional(body) : std::nullopt;
    if (rest.starts_with("<!--")) {
      std::size_t end = xml.find("-->", open + 4);
      if (end == std::string_view::npos) return std::nullopt;
      at = end + 3;
      continue;
    }
    std::string_view name = tag_name(xml, open + 1);
    std::size_t start_end = xml.find('>', open);
    if (name.empty() || start_end == std::string_view::npos) return std::nullopt;
    std::string value;
    if (xml[start_end - 1] == '/') {
      at = start_end + 1;  // <HostId/>: empty
    } else {
      std::string closing = "</" + std::string(name);
      std::size_t close = xml.find(closing, start_end + 1);
      if (close == std::string_view::npos) return std::nullopt;
      value = unescape(xml.substr(start_end + 1, close - start_end - 1));
      std::size_t close_end = xml.find('>', close);
      if (close_end == std::string_view::npos) return std::nullopt;
      at = close_end + 1;
    }
    if (name == "Code") {
      body.code = std::move(value);
    } else if (name == "Message") {
      body.message = std::move(value);
    } else if (name == "RequestId") {
      body.request_id = std::move(value);
    } else if (name == "HostId") {
      body.host_id = std::move(value);
    }
  }
}

Error service_error(const HttpResponse& response) {
  Error error;
  error.kind = Error::Kind::service;
  error.http_status = response.status;
  if (auto body = parse_s3_error(response.body)) {
    error.code = std::move(body->code);
    error.message = std::move(body->message);
    error.request_id = std::move(body->request_id);
    error.host_id = std::move(body->host_id);
  }
  // No XML (HEAD, proxies, some gateways): fall back to the status line, as the AWS SDKs do ("Not Found" ->
  // code NotFound), so that code is never empty for a service error.
  if (error.code.empty()) {
    for (char c : response.reason) {
      if (c != ' ') error.code.push_back(c);
    }
    if (error.code.empty()) error.code = "HTTP" + std::to_string(response.status);
  }
  if (error.message.empty()) {
    error.message = "HTTP " + std::to_string(response.status);
    if (!response.reason.empty()) error.message += " " + response.reason;
  }
  if (error.request_id.empty()) error.request_id = std::string(response.header("x-amz-request-id"));
  if (error.host_id.empty()) error.host_id = std::string(response.header("x-amz-id-2"));
  return error;
}

Error checksum_mismatch_error(const HttpResponse& response, std::string message) {
  Error error = make_error(Error::Kind::checksum_mismatch, "ChecksumMismatch", std::move(message));
  error.http_status = response.status;
  error.request_id = std::string(response.header("x-amz-request-id"));
  error.host_id = std::string(response.header("x-amz-id-2"));
  return error;
}

}  // namespace s3up
