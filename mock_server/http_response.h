// http_response.h: the status line and header block of a response, and the HTTP date format.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http_request.h"

namespace s3up::mock {

struct ResponseHead {
  int status = 200;
  std::vector<HttpHeader> headers;
  std::optional<std::uint64_t> content_length;  // nullopt: no Content-Length (204, bodiless HEAD errors)
  bool close = false;                           // adds "Connection: close"
};

std::string_view reason_phrase(int status);
std::string http_date(std::time_t when);  // "Tue, 15 Nov 1994 08:12:31 GMT"
std::string serialize(const ResponseHead& head);

}  // namespace s3up::mock
