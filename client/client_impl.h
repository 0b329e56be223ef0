// client/client_impl.h: Client::Impl, the state one Client owns (resolved configuration, parsed endpoint,
// curl handle, pre-read buffer, logger, cancel signal, signing clock) and the steps every request shares:
// sign, log, exchange, and the retry loop around them.
#pragma once

#include <spdlog/logger.h>

#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/cancel_signal.h"
#include "client/client_config.h"
#include "client/curl_handle.h"
#include "client/endpoint.h"
#include "client/http_exchange.h"
#include "client/provider_profile.h"
#include "client/request_signer.h"
#include "client/retry.h"
#include "client/signing_clock.h"
#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

// A PUT whose body is streamed: what a PutObject and an UploadPart tell put_body (put_object.cpp), which does
// the rest the same way for both.
struct StreamedPut {
  RequestTarget target;                        // the object's, with ?partNumber=&uploadId= for a part
  std::string operation;                       // "PUT s3://bucket/key", for the logs and retry messages
  std::optional<ChecksumAlgorithm> algorithm;  // asked for; nullopt: per the checksum calculation
  ChecksumLocation location = ChecksumLocation::automatic;
  bool signed_payload = false;
  bool content_md5 = false;
  // An UploadPart of an upload created without a checksum: none is sent, but the provider's Content-MD5
  // fallback still applies.
  bool part_without_checksum = false;
  std::string content_type;
  const ProgressFunction* progress = nullptr;  // null: no progress reports
};

struct Client::Impl {
  explicit Impl(ClientConfig requested);

  ClientConfig config;  // resolved
  Endpoint endpoint;
  // What the service accepts: config.provider, or the one endpoint_url names (provider_profile.cpp).
  const ProviderProfile* profile = nullptr;
  std::optional<Error> config_error;
  std::shared_ptr<spdlog::logger> logger;
  TransferSettings transfer;
  CurlHandle curl;
  // Made on the first header-mode upload and reused by every later one (its buffer is 1 MiB).
  std::unique_ptr<HeaderChecksumPreread> preread;
  CancelSignal cancel_signal;   // the one member other threads touch (Client::cancel)
  SigningClock clock;           // corrected after a RequestTimeTooSkewed answer, for every later request
  std::minstd_rand random;      // the backoff's jitter; seeded per Client so that clients do not agree
  ExchangeTrace last_exchange;  // what the latest exchange did, for the retry loop

  // The configuration problem or missing credentials that stop every request before anything is sent.
  std::optional<Error> check_ready() const;

  RequestTarget target(std::string_view bucket, std::string_view key) const {
    return make_target(endpoint, config.addressing, bucket, key);
  }

  // Signs with the current time, as corrected by clock.
  SignedOutgoingRequest sign(std::string method, RequestTarget target, std::vector<sigv4::Header> headers,
                             std::string payload_hash) const;

  // Logs the request (debug; the canonical request at trace) and performs it.
  Result<HttpResponse> exchange(const SignedOutgoingRequest& request, BodyEncoder* upload,
                                const ResponseSink* sink);

  HeaderChecksumPreread& preread_buffer();

  // The streamed PUT of PutObject and UploadPart (put_object.cpp): the checksum planned, the payload mode and
  // its encoder chosen, the body pre-read when a header needs its digest, then per attempt signed, streamed
  // and the answer checked to confirm the body (every byte sent, an ETag, the checksum echoed as sent).
  Result<PutObjectResult> put_body(const StreamedPut& put, BodySource& body);

  // The retry loop (retry.cpp): runs attempt until it succeeds or its failure is final, within config.retry
  // and the call's deadline (config.request_timeout), waking at once on cancel. Before a retry with a body,
  // the source is rewound and the attempt builds a fresh encoder, so every checksum and the signature chain
  // start afresh; a source that cannot rewind ends the call with Error{body, BodyNotRewindable} naming the
  // failure it could not retry. A RequestTimeTooSkewed answer corrects clock from the server's Date header
  // and is retried once. Returns the attempts made, or the final Error with Error::attempts set.
  Result<int> run_with_retries(std::string_view operation, BodySource* body, const Attempt& attempt);

  // run_with_retries for an attempt returning Result<T>: the successful attempt's value.
  template <class T, class F>
  Result<T> with_retries(std::string_view operation, BodySource* body, F&& attempt) {
    std::optional<T> value;
    auto outcome = run_with_retries(operation, body, [&](int number) -> std::optional<Error> {
      Result<T> result = attempt(number);
      if (!result) return result.error();
      value = std::move(result.value());
      return std::nullopt;
    });
    if (!outcome) return outcome.error();
    return std::move(*value);
  }
};

}  // namespace s3up
