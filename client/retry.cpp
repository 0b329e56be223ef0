// retry.cpp: the retry policy (which failures are transient, the full-jitter backoff) and the one loop every
// request runs in: attempts, rewinds, backoff waits that wake on cancel, the call's deadline, and the clock
// correction after RequestTimeTooSkewed.
#include "client/retry.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <exception>
#include <random>
#include <string>
#include <string_view>

#include "client/client_impl.h"
#include "client/error.h"

namespace s3up {
namespace {

using Milliseconds = std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

// curl failures where the request may not have reached the server, or its answer did not reach us: the
// connection could not be made (a name that did not resolve included: DNS fails transiently too), broke while
// sending or receiving, or closed without an answer. Everything else curl reports (bad options, URLs,
// out of memory, TLS trust) fails the same way every time.
constexpr std::array<std::string_view, 6> transient_curl_codes = {
    "CURLE_COULDNT_RESOLVE_HOST", "CURLE_COULDNT_CONNECT", "CURLE_SEND_ERROR",
    "CURLE_RECV_ERROR",           "CURLE_GOT_NOTHING",     "CURLE_PARTIAL_FILE",
};

Error with_attempts(Error error, int attempts) {
  error.attempts = attempts;
  return error;
}

// One attempt's failure for a log line or a message that already counts the attempts itself.
std::string describe(Error error) {
  error.attempts = 0;
  return error.to_string();
}

// The deadline belongs to one call: cleared when it ends, so that nothing outside the loop inherits it.
class CallDeadline {
 public:
  CallDeadline(TransferSettings& transfer, std::chrono::milliseconds request_timeout) : transfer_(transfer) {
    transfer_.deadline.reset();
    if (request_timeout.count() > 0) transfer_.deadline = SteadyClock::now() + request_timeout;
  }
  ~CallDeadline() { transfer_.deadline.reset(); }
  CallDeadline(const CallDeadline&) = delete;
  CallDeadline& operator=(const CallDeadline&) = delete;

 private:
  TransferSettings& transfer_;
};

// The failure that could not be retried, kept in the message so that the cause is not lost.
Error not_retryable_body(const Error& failure, std::string_view why, int attempts) {
  Error error = make_error(Error::Kind::body, "BodyNotRewindable",
                           "attempt " + std::to_string(attempts) + " failed (" + describe(failure) +
                               ") and cannot be retried: " + std::string(why));
  error.http_status = failure.http_status;
  error.request_id = failure.request_id;
  error.host_id = failure.host_id;
  error.attempts = attempts;
  return error;
}

Error deadline_error(const ClientConfig& config, const Error& last, int attempts) {
  Error error = timeout_error("request_timeout",
                              "request_timeout (" + std::to_string(config.request_timeout.count()) +
                                  " ms for the whole call) leaves no time for another attempt; attempt " +
                                  std::to_string(attempts) + " failed: " + describe(last));
  error.attempts = attempts;
  return error;
}

}  // namespace

RetryDecision retry_decision(const Error& error) {
  switch (error.kind) {
    case Error::Kind::network:
      return std::find(transient_curl_codes.begin(), transient_curl_codes.end(), error.code) !=
                     transient_curl_codes.end()
                 ? RetryDecision::retry
                 : RetryDecision::give_up;
    case Error::Kind::timeout:
      // The call's own deadline is the caller's limit, not a transient failure.
      return error.code == "connect_timeout" || error.code == "stall_timeout" ? RetryDecision::retry
                                                                              : RetryDecision::give_up;
    case Error::Kind::service:
      if (error.http_status == 500 || error.http_status == 502 || error.http_status == 503 ||
          error.http_status == 504) {
        return RetryDecision::retry;
      }
      // S3 closes a request whose body stopped arriving for a while with 400 RequestTimeout: the network's
      // fault, not the request's.
      if (error.http_status == 400 && error.code == "RequestTimeout") return RetryDecision::retry;
      if (error.http_status == 403 && error.code == "RequestTimeTooSkewed")
        return RetryDecision::correct_clock;
      return RetryDecision::give_up;
    case Error::Kind::invalid_argument:
    case Error::Kind::body:
    case Error::Kind::tls:
    case Error::Kind::checksum_mismatch:
    case Error::Kind::protocol:
    case Error::Kind::cancelled:
      return RetryDecision::give_up;
  }
  return RetryDecision::give_up;
}

Milliseconds backoff_delay(const RetryPolicy& policy, int retry, double unit_random) {
  // The ceiling doubles per retry up to max_backoff; counting in doubles cannot overflow for any retry.
  double ceiling = static_cast<double>(std::max<Milliseconds::rep>(policy.base_delay.count(), 0));
  for (int n = 1; n < retry && ceiling < static_cast<double>(policy.max_backoff.count()); ++n) ceiling *= 2;
  ceiling =
      std::min(ceiling, static_cast<double>(std::max<Milliseconds::rep>(policy.max_backoff.count(), 0)));
  const double unit = std::clamp(unit_random, 0.0, 1.0);
  return Milliseconds(static_cast<Milliseconds::rep>(unit * ceiling));
}

Result<int> Client::Impl::run_with_retries(std::string_view operation, BodySource* body,
                                           const Attempt& attempt) {
  const RetryPolicy& policy = config.retry;
  CallDeadline deadline(transfer, config.request_timeout);
  bool clock_corrected = false;

  for (int number = 1;; ++number) {
    if (cancel_signal.cancelled()) return with_attempts(cancelled_error(), number - 1);
    last_exchange = {};
    std::optional<Error> failure = attempt(number);
    if (!failure) return number;
    failure->attempts = number;

    RetryDecision decision = retry_decision(*failure);
    if (decision == RetryDecision::correct_clock) {
      // Once per call: a second skew answer means the Date header cannot be trusted to fix it.
      if (clock_corrected || !clock.correct_from(last_exchange.date)) return std::move(*failure);
      clock_corrected = true;
      logger->warn(
          "{}: the server says our clock is off (RequestTimeTooSkewed); signing with its time from now "
          "on (offset {} s)",
          operation, clock.offset().count());
    } else if (decision == RetryDecision::give_up) {
      return std::move(*failure);
    }
    if (number >= policy.max_attempts) {
      if (policy.max_attempts > 1) {
        logger->info("{}: giving up after {} attempts: {}", operation, number, describe(*failure));
      }
      return std::move(*failure);
    }
    // A sink cannot take the same bytes twice: a download that failed midway is not started over.
    if (last_exchange.sink_bytes > 0) {
      failure->message += " (not retried: " + std::to_string(last_exchange.sink_bytes) +
                          " bytes had already gone to the sink)";
      return std::move(*failure);
    }
    // The source starts over, before the wait, so that a failed rewind is reported with the failure it
    // could not retry. The attempt then builds a fresh encoder (every checksum, the seed signature and the
    // chunk-signature chain from scratch, under a new x-amz-date), never reusing the last one's state: a
    // stale trailer checksum after a retry is how aws-sdk-cpp#3903 corrupted uploads. A one-way source can
    // only be sent again when the failed attempt never read from it (a refused connection, say).
    if (body != nullptr && last_exchange.upload_bytes > 0) {
      if (!body->can_rewind()) return not_retryable_body(*failure, "the body source cannot rewind", number);
      try {
        body->rewind();
      } catch (const std::exception& error) {
        return not_retryable_body(*failure, std::string("rewinding the body source failed: ") + error.what(),
                                  number);
      } catch (...) {
        return not_retryable_body(*failure, "rewinding the body source threw an unknown exception", number);
      }
    }

    // The clock correction retries at once: the server answered, nothing suggests it is overloaded.
    Milliseconds delay{0};
    if (decision == RetryDecision::retry) {
      delay = backoff_delay(policy, number, std::uniform_real_distribution<double>(0.0, 1.0)(random));
    }
    // Never sleep past the deadline only to fail there: fail now, with the failure that made us wait.
    if (transfer.deadline && SteadyClock::now() + delay >= *transfer.deadline) {
      return deadline_error(config, *failure, number);
    }
    logger->info("{}: attempt {} of {} failed: {}; retrying in {} ms", operation, number, policy.max_attempts,
                 describe(*failure), delay.count());
    if (!cancel_signal.sleep_for(delay)) return with_attempts(cancelled_error(), number);
  }
}

}  // namespace s3up
