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
#include "client/xml_reader.h"
#include "s3up/client.h"

namespace s3up {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view tag_name(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && !is_space(text[end]) && text[end] != '>' && text[end] != '/') ++end;
  return text.substr(at, end - at);
}

// What an <Error> document held. complete is false when it was cut short (a truncated answer): the children
// read before the cut are kept, so that a half-delivered error still names its code.
struct ErrorDocument {
  S3ErrorBody fields;
  bool complete = false;
};

// nullopt when the text is not an <Error> document at all.
std::optional<ErrorDocument> read_error_document(std::string_view xml) {
  std::size_t at = 0;
  if (!skip_xml_prolog(xml, at)) return std::nullopt;
  if (at >= xml.size() || xml[at] != '<' || tag_name(xml, at + 1) != "Error") return std::nullopt;
  ErrorDocument document;
  S3ErrorBody& body = document.fields;
  std::size_t root_end = xml.find('>', at);
  if (root_end == std::string_view::npos) return document;
  if (xml[root_end - 1] == '/') {  // <Error/>
    document.complete = true;
    return document;
  }
  at = root_end + 1;

  // Walk the direct children of <Error>. A child's text runs to its own closing tag; S3 escapes '<' inside
  // values (StringToSign, CanonicalRequest), so a closing tag cannot appear early.
  for (;;) {
    std::size_t open = xml.find('<', at);
    if (open == std::string_view::npos) return document;  // truncated: no </Error>
    std::string_view rest = xml.substr(open);
    if (rest.starts_with("</")) {
      if (tag_name(xml, open + 2) != "Error") return std::nullopt;
      document.complete = true;
      return document;
    }
    if (rest.starts_with("<!--")) {
      std::size_t end = xml.find("-->", open + 4);
      if (end == std::string_view::npos) return document;
      at = end + 3;
      continue;
    }
    std::string_view name = tag_name(xml, open + 1);
    std::size_t start_end = xml.find('>', open);
    if (name.empty()) return open + 1 >= xml.size() ? std::optional(document) : std::nullopt;
    if (start_end == std::string_view::npos) return document;
    std::string value;
    if (xml[start_end - 1] == '/') {
      at = start_end + 1;  // <HostId/>: empty
    } else {
      std::string closing = "</" + std::string(name);
      std::size_t close = xml.find(closing, start_end + 1);
      if (close == std::string_view::npos) return document;
      value = xml_unescape(xml.substr(start_end + 1, close - start_end - 1));
      std::size_t close_end = xml.find('>', close);
      if (close_end == std::string_view::npos) return document;
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

}  // namespace

std::optional<S3ErrorBody> parse_s3_error(std::string_view xml) {
  auto document = read_error_document(xml);
  if (!document || !document->complete) return std::nullopt;
  return std::move(document->fields);
}

Error service_error(const HttpResponse& response) {
  Error error;
  error.kind = Error::Kind::service;
  error.http_status = response.status;
  // A document cut short (a connection closed midway, a proxy's limit) still gives what it got to.
  bool cut_short = false;
  if (auto document = read_error_document(response.body)) {
    error.code = std::move(document->fields.code);
    error.message = std::move(document->fields.message);
    error.request_id = std::move(document->fields.request_id);
    error.host_id = std::move(document->fields.host_id);
    cut_short = !document->complete;
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
  if (cut_short) error.message += " (the XML error document was cut short)";
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
