// client.cpp: the Client object: construction (configuration resolved once, one curl handle), and the
// signing, logging and exchange steps shared by every request.
#include <spdlog/spdlog.h>

#include <ctime>
#include <utility>

#include "client/client_impl.h"
#include "s3up/client.h"

namespace s3up {

Client::Impl::Impl(ClientConfig requested) {
  ResolvedConfig resolved = resolve_config(std::move(requested));
  config = std::move(resolved.config);
  endpoint = std::move(resolved.endpoint);
  config_error = std::move(resolved.error);
  logger = config.logger ? config.logger : spdlog::default_logger();
  transfer.verify_tls = config.verify_tls;
  transfer.ca_bundle = config.ca_bundle;
  transfer.connect_timeout = config.connect_timeout;
  transfer.request_timeout = config.request_timeout;
  if (!config.verify_tls) {
    logger->warn("TLS certificate verification is off for {}: the server's identity is not checked",
                 config.endpoint_url);
  }
}

std::optional<Error> Client::Impl::check_ready() const {
  if (config_error) return config_error;
  return missing_credentials(config);
}

SignedOutgoingRequest Client::Impl::sign(std::string method, RequestTarget request_target,
                                         std::vector<sigv4::Header> headers, std::string payload_hash) const {
  return sign_outgoing_request(std::move(method), std::move(request_target), std::move(headers),
                               std::move(payload_hash), *config.credentials, config.region,
                               static_cast<std::int64_t>(std::time(nullptr)));
}

Result<HttpResponse> Client::Impl::exchange(const SignedOutgoingRequest& request, BodyEncoder* upload,
                                            const ResponseSink* sink) {
  // Never log request.authorization, the seed signature or the credentials: the canonical request holds
  // neither a secret nor a signature.
  logger->debug("{} {} payload={} body_bytes={}", request.method, request.target.url, request.payload_hash,
                upload != nullptr ? upload->encoded_length() : 0);
  logger->trace("canonical request:\n{}", request.canonical_request);
  auto response = perform_exchange(curl, transfer, request, upload, sink);
  if (!response) {
    logger->debug("{} {} failed: {}", request.method, request.target.url, response.error().to_string());
    return response;
  }
  logger->debug("{} {} -> {} request_id={} sent={} received={}", request.method, request.target.url,
                response->status, response->header("x-amz-request-id"), response->upload_bytes,
                response->body_bytes);
  return response;
}

HeaderChecksumPreread& Client::Impl::preread_buffer() {
  if (!preread) preread = std::make_unique<HeaderChecksumPreread>();
  return *preread;
}

Client::Client(ClientConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Client::~Client() = default;
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;

const ClientConfig& Client::config() const {
  return impl_->config;
}

}  // namespace s3up
