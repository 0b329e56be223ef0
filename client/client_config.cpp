// client_config.cpp: defaults and AWS_* environment variables for ClientConfig, resolved once per Client.
#include "client/client_config.h"

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "client/error.h"

namespace s3up {
namespace {

// The first of names that is set and non-empty. Empty counts as unset, as the AWS CLI and SDKs treat it.
std::optional<std::string> first_env(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return std::string(value);
  }
  return std::nullopt;
}

Error config_error(std::string message) {
  return make_error(Error::Kind::invalid_argument, "InvalidConfiguration", std::move(message));
}

}  // namespace

std::optional<std::string> upload_buffer_size_problem(std::string_view option, std::size_t size) {
  if (size >= min_upload_buffer_size && size <= max_upload_buffer_size) return std::nullopt;
  return std::string(option) + " " + std::to_string(size) + " is outside curl's range of " +
         std::to_string(min_upload_buffer_size) + " to " + std::to_string(max_upload_buffer_size) + " bytes";
}

ResolvedConfig resolve_config(ClientConfig config) {
  ResolvedConfig resolved;
  auto remember = [&resolved](Error error) {
    if (!resolved.error) resolved.error = std::move(error);
  };

  if (config.region.empty())
    config.region = first_env({"AWS_REGION", "AWS_DEFAULT_REGION"}).value_or("us-east-1");
  if (config.endpoint_url.empty()) {
    config.endpoint_url =
        first_env({"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}).value_or(default_endpoint_url(config.region));
  }
  auto endpoint = parse_endpoint(config.endpoint_url);
  if (endpoint) {
    resolved.endpoint = endpoint.value();
  } else {
    remember(endpoint.error());
  }

  if (!config.credentials) {
    auto access_key = first_env({"AWS_ACCESS_KEY_ID"});
    auto secret_key = first_env({"AWS_SECRET_ACCESS_KEY"});
    if (access_key && secret_key) {
      config.credentials =
          sigv4::Credentials{*access_key, *secret_key, first_env({"AWS_SESSION_TOKEN"}).value_or("")};
    }
  }

  if (!config.checksum_calculation) {
    if (auto value = first_env({"AWS_REQUEST_CHECKSUM_CALCULATION"})) {
      config.checksum_calculation = parse_checksum_calculation(*value);
      if (!config.checksum_calculation) {
        remember(config_error("AWS_REQUEST_CHECKSUM_CALCULATION=\"" + *value +
                              "\" is not when_supported or when_required"));
      }
    }
    if (!config.checksum_calculation) config.checksum_calculation = ChecksumCalculation::when_supported;
  }

  if (config.ca_bundle.empty()) config.ca_bundle = first_env({"AWS_CA_BUNDLE"}).value_or("");

  if (config.checksum_algorithm == ChecksumAlgorithm::md5) {
    remember(config_error("MD5 is not an S3 checksum algorithm; use PutObjectOptions::content_md5"));
  }
  // AWS_MAX_ATTEMPTS is not read here: retry.max_attempts is an explicit value (3 by default) that the
  // environment could not tell from a chosen 3. The s3up command honours the variable, as the AWS CLI does.
  if (config.retry.max_attempts < 1) {
    remember(config_error("retry.max_attempts is " + std::to_string(config.retry.max_attempts) +
                          "; it counts the first attempt, so it is at least 1 (1: no retry)"));
  }
  if (config.retry.base_delay.count() < 0 || config.retry.max_backoff.count() < 0 ||
      config.connect_timeout.count() < 0 || config.request_timeout.count() < 0 ||
      config.stall_timeout.count() < 0) {
    remember(config_error("a retry delay or a timeout is negative"));
  }
  if (config.chunk_size < min_chunk_size) {
    remember(config_error("chunk_size " + std::to_string(config.chunk_size) + " is below S3's minimum of " +
                          std::to_string(min_chunk_size) + " bytes"));
  }

  if (auto problem = upload_buffer_size_problem("upload_buffer_size", config.upload_buffer_size))
    remember(config_error(std::move(*problem)));

  resolved.config = std::move(config);
  return resolved;
}

std::optional<Error> missing_credentials(const ClientConfig& config) {
  if (!config.credentials) {
    return config_error(
        "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for "
        "temporary "
        "credentials), or ClientConfig::credentials");
  }
  if (config.credentials->access_key_id.empty() || config.credentials->secret_access_key.empty()) {
    return config_error("credentials need both an access key id and a secret access key");
  }
  return std::nullopt;
}

}  // namespace s3up
