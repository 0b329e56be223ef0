// retry_policy_test.cpp: the pure parts of retrying: which failures are retried (a table written from the
// issue and the AWS SDKs' standard retry mode, not from the code), the full-jitter backoff bounds, the clock
// offset read from an HTTP Date header (epoch values from Python's calendar.timegm), and the cancel signal.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include "client/cancel_signal.h"
#include "client/retry.h"
#include "client/signing_clock.h"
#include "s3up/client.h"

using namespace s3up;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

Error failure(Error::Kind kind, long status, std::string code) {
  Error error;
  error.kind = kind;
  error.http_status = status;
  error.code = std::move(code);
  return error;
}

}  // namespace

TEST_CASE("retry_decision: transient failures are retried, the caller's and the request's faults are not",
          "[client][retry]") {
  using Kind = Error::Kind;
  struct Row {
    Error error;
    RetryDecision expected;
  };
  const Row table[] = {
      // Connection failures, resets, answers that never came.
      {failure(Kind::network, 0, "CURLE_COULDNT_CONNECT"), RetryDecision::retry},
      {failure(Kind::network, 0, "CURLE_COULDNT_RESOLVE_HOST"), RetryDecision::retry},
      {failure(Kind::network, 0, "CURLE_SEND_ERROR"), RetryDecision::retry},
      {failure(Kind::network, 0, "CURLE_RECV_ERROR"), RetryDecision::retry},
      {failure(Kind::network, 0, "CURLE_GOT_NOTHING"), RetryDecision::retry},
      {failure(Kind::network, 0, "CURLE_PARTIAL_FILE"), RetryDecision::retry},
      // Local curl failures fail the same way every time.
      {failure(Kind::network, 0, "CURLE_URL_MALFORMAT"), RetryDecision::give_up},
      {failure(Kind::network, 0, "CURLE_OUT_OF_MEMORY"), RetryDecision::give_up},
      // Timeouts: connect and stall are transient; the call's own deadline is final.
      {failure(Kind::timeout, 0, "connect_timeout"), RetryDecision::retry},
      {failure(Kind::timeout, 0, "stall_timeout"), RetryDecision::retry},
      {failure(Kind::timeout, 0, "request_timeout"), RetryDecision::give_up},
      // 5xx, SlowDown included.
      {failure(Kind::service, 500, "InternalError"), RetryDecision::retry},
      {failure(Kind::service, 502, "BadGateway"), RetryDecision::retry},
      {failure(Kind::service, 503, "SlowDown"), RetryDecision::retry},
      {failure(Kind::service, 503, "ServiceUnavailable"), RetryDecision::retry},
      {failure(Kind::service, 504, "GatewayTimeout"), RetryDecision::retry},
      {failure(Kind::service, 501, "NotImplemented"), RetryDecision::give_up},
      {failure(Kind::service, 505, "HTTPVersionNotSupported"), RetryDecision::give_up},
      // 400 RequestTimeout only, of the 4xx.
      {failure(Kind::service, 400, "RequestTimeout"), RetryDecision::retry},
      {failure(Kind::service, 400, "BadDigest"), RetryDecision::give_up},
      {failure(Kind::service, 400, "InvalidRequest"), RetryDecision::give_up},
      {failure(Kind::service, 403, "AccessDenied"), RetryDecision::give_up},
      {failure(Kind::service, 403, "SignatureDoesNotMatch"), RetryDecision::give_up},
      {failure(Kind::service, 404, "NoSuchBucket"), RetryDecision::give_up},
      {failure(Kind::service, 408, "RequestTimeout"), RetryDecision::give_up},
      {failure(Kind::service, 409, "OperationAborted"), RetryDecision::give_up},
      {failure(Kind::service, 429, "TooManyRequests"), RetryDecision::give_up},
      // A wrong clock: corrected from the server's Date, then retried.
      {failure(Kind::service, 403, "RequestTimeTooSkewed"), RetryDecision::correct_clock},
      // Never: the body, TLS trust, checksums, unreadable answers, bad arguments, cancel.
      {failure(Kind::body, 0, "BodyReadFailed"), RetryDecision::give_up},
      {failure(Kind::body, 0, "BodyNotRewindable"), RetryDecision::give_up},
      {failure(Kind::tls, 0, "CURLE_PEER_FAILED_VERIFICATION"), RetryDecision::give_up},
      {failure(Kind::checksum_mismatch, 200, "ChecksumMismatch"), RetryDecision::give_up},
      {failure(Kind::protocol, 200, "UnexpectedResponseBody"), RetryDecision::give_up},
      {failure(Kind::protocol, 0, "CURLE_WEIRD_SERVER_REPLY"), RetryDecision::give_up},
      {failure(Kind::invalid_argument, 0, "InvalidKey"), RetryDecision::give_up},
      {failure(Kind::cancelled, 0, "cancelled"), RetryDecision::give_up},
  };
  for (const Row& row : table) {
    INFO(to_string(row.error.kind) << " " << row.error.http_status << " " << row.error.code);
    CHECK(retry_decision(row.error) == row.expected);
  }
}

TEST_CASE("backoff_delay: full jitter below a ceiling that doubles up to max_backoff", "[client][retry]") {
  RetryPolicy policy;  // 100 ms base, 20 s cap
  // unit 1: the ceiling itself; unit 0: no wait; in between: proportional.
  CHECK(backoff_delay(policy, 1, 1.0) == milliseconds(100));
  CHECK(backoff_delay(policy, 2, 1.0) == milliseconds(200));
  CHECK(backoff_delay(policy, 3, 1.0) == milliseconds(400));
  CHECK(backoff_delay(policy, 8, 1.0) == milliseconds(12800));
  CHECK(backoff_delay(policy, 9, 1.0) == milliseconds(20000));     // 25600 capped
  CHECK(backoff_delay(policy, 1000, 1.0) == milliseconds(20000));  // no overflow however many retries
  CHECK(backoff_delay(policy, 5, 0.0) == milliseconds(0));
  CHECK(backoff_delay(policy, 3, 0.5) == milliseconds(200));
  CHECK(backoff_delay(policy, 3, 0.25) == milliseconds(100));
  // Out-of-range randoms are clamped, never a negative or over-the-ceiling wait.
  CHECK(backoff_delay(policy, 2, -1.0) == milliseconds(0));
  CHECK(backoff_delay(policy, 2, 7.0) == milliseconds(200));

  RetryPolicy tiny{.max_attempts = 3, .base_delay = milliseconds(1), .max_backoff = milliseconds(5)};
  CHECK(backoff_delay(tiny, 1, 1.0) == milliseconds(1));
  CHECK(backoff_delay(tiny, 3, 1.0) == milliseconds(4));
  CHECK(backoff_delay(tiny, 4, 1.0) == milliseconds(5));
}

TEST_CASE("clock_offset_from_date reads every HTTP date form", "[client][retry]") {
  // python3 -c "import calendar,time;print(calendar.timegm(time.strptime('Sun, 06 Nov 1994 08:49:37 GMT',
  // '%a, %d %b %Y %H:%M:%S GMT')))" -> 784111777 (RFC 9110's example date)
  constexpr std::int64_t example = 784111777;
  CHECK(clock_offset_from_date("Sun, 06 Nov 1994 08:49:37 GMT", example) == seconds(0));
  CHECK(clock_offset_from_date("Sun, 06 Nov 1994 08:49:37 GMT", example - 3600) == seconds(3600));
  CHECK(clock_offset_from_date("Sun, 06 Nov 1994 08:49:37 GMT", example + 900) == seconds(-900));
  // The obsolete forms HTTP/1.1 recipients must still accept.
  CHECK(clock_offset_from_date("Sunday, 06-Nov-94 08:49:37 GMT", example) == seconds(0));
  CHECK(clock_offset_from_date("Sun Nov  6 08:49:37 1994", example) == seconds(0));
  // ... -> 1764374399
  CHECK(clock_offset_from_date("Fri, 28 Nov 2025 23:59:59 GMT", 1764374399 - 42) == seconds(42));
  CHECK_FALSE(clock_offset_from_date("", example));
  CHECK_FALSE(clock_offset_from_date("yesterday-ish", example));
}

TEST_CASE("CancelSignal: a sticky flag that wakes a backoff wait at once", "[client][retry]") {
  CancelSignal signal;
  CHECK_FALSE(signal.cancelled());
  CHECK(signal.sleep_for(milliseconds(1)));  // slept the whole time

  // Another thread cancels a wait that would otherwise last an hour.
  std::thread canceller([&signal] {
    std::this_thread::sleep_for(milliseconds(50));
    signal.cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(signal.sleep_for(std::chrono::hours(1)));
  canceller.join();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::minutes(1));
  CHECK(signal.cancelled());
  CHECK(signal.flag().load());

  // Sticky: later waits end at once, until reset.
  CHECK_FALSE(signal.sleep_for(std::chrono::hours(1)));
  signal.reset();
  CHECK_FALSE(signal.cancelled());
  CHECK(signal.sleep_for(milliseconds(1)));
}
