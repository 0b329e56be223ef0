// http_response.cpp: serialising response heads.
#include "http_response.h"

namespace s3up::mock {

std::string_view reason_phrase(int status) {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 301:
      return "Moved Permanently";
    case 307:
      return "Temporary Redirect";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 409:
      return "Conflict";
    case 411:
      return "Length Required";
    case 412:
      return "Precondition Failed";
    case 413:
      return "Content Too Large";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "Unknown";
  }
}

std::string http_date(std::time_t when) {
  std::tm tm{};
  ::gmtime_r(&when, &tm);
  char text[64];
  std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return text;
}

std::string serialize(const ResponseHead& head) {
  std::string out =
      "HTTP/1.1 " + std::to_string(head.status) + " " + std::string(reason_phrase(head.status)) + "\r\n";
  out += "Date: " + http_date(std::time(nullptr)) + "\r\n";
  out += "Server: s3up-mock\r\n";
  for (const auto& header : head.headers) out += header.name + ": " + header.value + "\r\n";
  if (head.content_length) out += "Content-Length: " + std::to_string(*head.content_length) + "\r\n";
  if (head.close) out += "Connection: close\r\n";
  out += "\r\n";
  return out;
}

}  // namespace s3up::mock
