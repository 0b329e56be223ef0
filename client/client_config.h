// client/client_config.h: ClientConfig with the defaults and the AWS_* environment resolved.
#pragma once

#include <optional>

#include "client/endpoint.h"
#include "s3up/client.h"

namespace s3up {

struct ResolvedConfig {
  ClientConfig config;         // every empty value filled from the environment or the default
  Endpoint endpoint;           // parsed config.endpoint_url (valid only when error is empty)
  std::optional<Error> error;  // the first configuration problem; every request reports it, nothing is sent
};

// Fills only what the caller left empty, so an explicit value always beats the environment:
// endpoint_url <- AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, https://s3.<region>.amazonaws.com;
// region <- AWS_REGION, AWS_DEFAULT_REGION, us-east-1; credentials <- AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN (left nullopt when absent: see missing_credentials);
// checksum_calculation <- AWS_REQUEST_CHECKSUM_CALCULATION, when_supported; ca_bundle <- AWS_CA_BUNDLE.
// Empty environment variables count as unset.
ResolvedConfig resolve_config(ClientConfig config);

// Error{invalid_argument} when no usable credentials were configured, naming the variables to set.
std::optional<Error> missing_credentials(const ClientConfig& config);

}  // namespace s3up
