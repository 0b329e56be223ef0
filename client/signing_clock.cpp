// signing_clock.cpp: the corrected signing time, and the clock offset read from a server's Date header.
#include "client/signing_clock.h"

#include <curl/curl.h>

#include <ctime>
#include <string>

namespace s3up {

std::optional<std::chrono::seconds> clock_offset_from_date(std::string_view http_date,
                                                           std::int64_t local_unix_seconds) {
  // curl_getdate reads every date format HTTP allows (RFC 9110 §5.6.7) and needs no locale or TZ setting,
  // unlike strptime. It needs a terminated string.
  const std::string text(http_date);
  if (text.empty()) return std::nullopt;
  const time_t server = curl_getdate(text.c_str(), nullptr);
  if (server == -1) return std::nullopt;
  return std::chrono::seconds(static_cast<std::int64_t>(server) - local_unix_seconds);
}

std::int64_t SigningClock::now() const {
  return static_cast<std::int64_t>(std::time(nullptr)) + offset_.count();
}

bool SigningClock::correct_from(std::string_view http_date) {
  auto offset = clock_offset_from_date(http_date, static_cast<std::int64_t>(std::time(nullptr)));
  if (!offset) return false;
  offset_ = *offset;
  return true;
}

}  // namespace s3up
