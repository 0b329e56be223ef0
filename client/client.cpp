// client.cpp: the Client object: construction (configuration resolved once, one curl handle), and the
// signing, logging and exchange steps shared by every request.
#include <spdlog/spdlog.h>

#include <random>
#include <string>
#include <string_view>
#include <utility>

#include "client/client_impl.h"
#include "client/test_hooks.h"
#include "s3up/client.h"

namespace s3up {
namespace {

// The canonical request holds no secret and no signature, but it does hold the session token, signed as the
// x-amz-security-token header: a credential, so its value is cut out of what is logged.
std::string without_session_token(std::string_view canonical_request) {
  constexpr std::string_view name = "\nx-amz-security-token:";
  std::string text(canonical_request);
  std::size_t at = text.find(name);
  if (at != std::string::npos) {
    at += name.size();
    text.replace(at, text.find('\n', at) - at, "<redacted>");
  }
  return text;
}

}  // namespace

Client::Impl::Impl(ClientConfig requested) {
  ResolvedConfig resolved = resolve_config(std::move(requested));
  config = std::move(resolved.config);
  endpoint = std::move(resolved.endpoint);
  config_error = std::move(resolved.error);
  profile = &provider_profile(resolve_provider(config.provider, config.endpoint_url));
  if (!config_error) config_error = check_provider_config(*profile, config);
  logger = config.logger ? config.logger : spdlog::default_logger();
  transfer.verify_tls = config.verify_tls;
  transfer.ca_bundle = config.ca_bundle;
  transfer.connect_timeout = config.connect_timeout;
  transfer.request_timeout = config.request_timeout;
  transfer.stall_timeout = config.stall_timeout;
  transfer.upload_buffer_size = config.upload_buffer_size;
  transfer.cancelled = &cancel_signal.flag();
  random.seed(std::random_device{}());
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
                               std::move(payload_hash), *config.credentials, config.region, clock.now());
}

Result<HttpResponse> Client::Impl::exchange(const SignedOutgoingRequest& request, BodyEncoder* upload,
                                            const ResponseSink* sink) {
  // Never log request.authorization, the seed signature or the credentials.
  logger->debug("{} {} payload={} body_bytes={}", request.method, request.target.url, request.payload_hash,
                upload != nullptr ? upload->encoded_length() : 0);
  if (logger->should_log(spdlog::level::trace)) {
    logger->trace("canonical request:\n{}", without_session_token(request.canonical_request));
  }
  auto response = perform_exchange(curl, transfer, request, upload, sink, &last_exchange);
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

void Client::cancel() {
  impl_->cancel_signal.cancel();
}

void Client::reset_cancel() {
  impl_->cancel_signal.reset();
}

void ClientTestHooks::set_clock_offset(Client& client, std::chrono::seconds offset) {
  client.impl_->clock.set_offset(offset);
}

std::chrono::seconds ClientTestHooks::clock_offset(const Client& client) {
  return client.impl_->clock.offset();
}

}  // namespace s3up
