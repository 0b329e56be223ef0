// client/signing_clock.h: the time a Client signs with: the local clock plus the offset learnt from the Date
// header of a server that answered RequestTimeTooSkewed, so that later requests carry the server's time.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace s3up {

// server time - local time, from an HTTP Date header ("Sun, 06 Nov 1994 08:49:37 GMT", or the obsolete
// forms HTTP/1.1 still allows) and the local time it is compared with; nullopt when the date is unreadable.
std::optional<std::chrono::seconds> clock_offset_from_date(std::string_view http_date,
                                                           std::int64_t local_unix_seconds);

class SigningClock {
 public:
  // Unix seconds: the local clock, corrected.
  std::int64_t now() const;
  std::chrono::seconds offset() const { return offset_; }
  void set_offset(std::chrono::seconds offset) { offset_ = offset; }
  // Learns the offset from a server's Date header; false (and the offset unchanged) when it is unreadable.
  bool correct_from(std::string_view http_date);

 private:
  std::chrono::seconds offset_{0};
};

}  // namespace s3up
