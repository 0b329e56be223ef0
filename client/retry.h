// client/retry.h: when and how a failed request is tried again (RetryPolicy): the pure decision whether an
// Error is worth another attempt, the full-jitter backoff, and the one attempt loop every request runs in.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

#include "s3up/client.h"

namespace s3up {

enum class RetryDecision {
  give_up,        // final: other 4xx, body, TLS, protocol, checksum mismatch, request_timeout, cancel...
  retry,          // transient: connection failures and resets, connect and stall timeouts, 500/502/503/504,
                  // 400 RequestTimeout
  correct_clock,  // 403 RequestTimeTooSkewed: learn the server's time from its Date header, then retry once
};

// The policy decision, from the Error alone (pure: the unit tests hold it to a table).
RetryDecision retry_decision(const Error& error);

// The wait before retry number `retry` (1 for the first retry): unit_random (in [0, 1]) times
// min(max_backoff, base_delay * 2^(retry - 1)): AWS's "full jitter".
std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int retry, double unit_random);

// One attempt (counted from 1): nullopt on success, else its failure. The loop that runs it is
// Client::Impl::run_with_retries (retry.cpp), a member because it drives the Client's own state: the cancel
// signal, the signing clock, the deadline of the curl transfer.
using Attempt = std::function<std::optional<Error>(int attempt)>;

}  // namespace s3up
