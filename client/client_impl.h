// client/client_impl.h: Client::Impl, the state one Client owns (resolved configuration, parsed endpoint,
// curl handle, pre-read buffer, logger) and the steps every request shares: sign, log, exchange.
#pragma once

#include <spdlog/logger.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client_config.h"
#include "client/curl_handle.h"
#include "client/endpoint.h"
#include "client/http_exchange.h"
#include "client/request_signer.h"
#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

struct Client::Impl {
  explicit Impl(ClientConfig requested);

  ClientConfig config;  // resolved
  Endpoint endpoint;
  std::optional<Error> config_error;
  std::shared_ptr<spdlog::logger> logger;
  TransferSettings transfer;
  CurlHandle curl;
  // Made on the first header-mode upload and reused by every later one (its buffer is 1 MiB).
  std::unique_ptr<HeaderChecksumPreread> preread;

  // The configuration problem or missing credentials that stop every request before anything is sent.
  std::optional<Error> check_ready() const;

  RequestTarget target(std::string_view bucket, std::string_view key) const {
    return make_target(endpoint, config.addressing, bucket, key);
  }

  // Signs with the current time.
  SignedOutgoingRequest sign(std::string method, RequestTarget target, std::vector<sigv4::Header> headers,
                             std::string payload_hash) const;

  // Logs the request (debug; the canonical request at trace) and performs it.
  Result<HttpResponse> exchange(const SignedOutgoingRequest& request, BodyEncoder* upload,
                                const ResponseSink* sink);

  HeaderChecksumPreread& preread_buffer();
};

}  // namespace s3up
