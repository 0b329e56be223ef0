// cli/client_settings.cpp: flag > environment > profile for each client setting. The order and the names
// follow the AWS CLI's documentation ("Configuration and credentials precedence") and botocore's behaviour
// where the documentation is silent (with an explicit --profile, credentials in the environment are ignored).
#include "client_settings.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "aws_config.h"
#include "s3up/body.h"
#include "s3up/checksum.h"

namespace s3up::cli {
namespace {

// A value and where it came from ("--region", "AWS_REGION", "profile dev"), for the debug log and errors.
struct Setting {
  std::string value;
  std::string source;
};

// The first of names that is set and non-empty: empty counts as unset, as in the AWS CLI and the library.
std::optional<Setting> first_env(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return Setting{value, name};
  }
  return std::nullopt;
}

std::optional<Setting> from_flag(const Arguments& arguments, const char* name) {
  auto value = arguments.value(name);
  if (!value || value->empty()) return std::nullopt;
  return Setting{*value, std::string("--") + name};
}

class ProfileValues {
 public:
  ProfileValues(std::optional<AwsProfile> profile) : profile_(std::move(profile)) {}
  bool found() const { return profile_.has_value(); }
  const std::string& name() const { return profile_->name; }

  std::optional<Setting> get(const std::string& key) const {
    if (!profile_) return std::nullopt;
    auto it = profile_->values.find(key);
    if (it == profile_->values.end() || it->second.empty()) return std::nullopt;
    return Setting{it->second, "profile " + profile_->name};
  }
  // A key of the "[services NAME]" section the profile names ("s3.endpoint_url").
  std::optional<Setting> service(const std::string& key) const {
    if (!profile_) return std::nullopt;
    auto it = profile_->services.find(key);
    if (it == profile_->services.end() || it->second.empty()) return std::nullopt;
    return Setting{it->second, "services section of profile " + profile_->name};
  }

 private:
  std::optional<AwsProfile> profile_;
};

template <class... Candidates>
std::optional<Setting> first_of(std::optional<Setting> first, Candidates... rest) {
  if (first) return first;
  if constexpr (sizeof...(rest) > 0) {
    return first_of(rest...);
  } else {
    return std::nullopt;
  }
}

// The profile the command uses, and whether it was named (by --profile or the environment): a named profile
// must exist, while a missing "default" is simply no profile.
struct ProfileChoice {
  std::string name = "default";
  bool named = false;
  bool by_flag = false;
};

ProfileChoice choose_profile(const Arguments& arguments) {
  if (auto flag = from_flag(arguments, "profile")) return {flag->value, true, true};
  // AWS_DEFAULT_PROFILE before AWS_PROFILE, the first set winning: botocore's order (configprovider.py lists
  // the profile's variables as ['AWS_DEFAULT_PROFILE', 'AWS_PROFILE']).
  if (auto env = first_env({"AWS_DEFAULT_PROFILE", "AWS_PROFILE"})) return {env->value, true, false};
  return {};
}

ProfileValues load(const ProfileChoice& choice) {
  const SharedConfigPaths paths = shared_config_paths();
  std::optional<AwsProfile> profile;
  try {
    profile = load_profile(paths, choice.name);
  } catch (const ConfigFileError& error) {
    throw UsageError(std::string("AWS configuration: ") + error.what());
  }
  if (!profile && choice.named) {
    // The AWS CLI's words, so that the message is familiar, and the files, so that it is actionable.
    throw UsageError("The config profile (" + choice.name + ") could not be found in " + paths.config +
                     " or " + paths.credentials);
  }
  if (profile) spdlog::debug("AWS profile {} from {} and {}", choice.name, paths.config, paths.credentials);
  return ProfileValues(std::move(profile));
}

// The keys as a pair: both or neither, from one source. Half a pair is a mistake worth saying (botocore
// raises PartialCredentialsError), never silently skipped to the next source.
std::optional<sigv4::Credentials> credentials_from_env() {
  auto access_key = first_env({"AWS_ACCESS_KEY_ID"});
  auto secret_key = first_env({"AWS_SECRET_ACCESS_KEY"});
  if (!access_key && !secret_key) return std::nullopt;
  if (!access_key || !secret_key)
    throw UsageError(std::string(access_key ? "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"
                                            : "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not"));
  auto token = first_env({"AWS_SESSION_TOKEN"});
  return sigv4::Credentials{access_key->value, secret_key->value, token ? token->value : ""};
}

std::optional<sigv4::Credentials> credentials_from_profile(const ProfileValues& profile) {
  auto access_key = profile.get("aws_access_key_id");
  auto secret_key = profile.get("aws_secret_access_key");
  if (!access_key && !secret_key) return std::nullopt;
  if (!access_key || !secret_key)
    throw UsageError("profile " + profile.name() + " has " +
                     (access_key ? "aws_access_key_id but no aws_secret_access_key"
                                 : "aws_secret_access_key but no aws_access_key_id"));
  auto token = profile.get("aws_session_token");
  return sigv4::Credentials{access_key->value, secret_key->value, token ? token->value : ""};
}

void log_source(const char* what, const std::optional<Setting>& setting) {
  if (setting) spdlog::debug("{} {} (from {})", what, setting->value, setting->source);
}

}  // namespace

ClientConfig resolve_client_config(const Arguments& arguments) {
  const ProfileChoice choice = choose_profile(arguments);
  const ProfileValues profile = load(choice);
  ClientConfig config;

  auto region = first_of(from_flag(arguments, "region"), first_env({"AWS_REGION", "AWS_DEFAULT_REGION"}),
                         profile.get("region"));
  log_source("region", region);
  if (region) config.region = region->value;

  // The AWS CLI's order for a service endpoint: --endpoint-url, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the
  // s3 endpoint_url of the profile's services section, then the profile's own (nested under "s3 =", then
  // top level).
  auto endpoint = first_of(
      from_flag(arguments, "endpoint-url"), first_env({"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}),
      profile.service("s3.endpoint_url"), profile.get("s3.endpoint_url"), profile.get("endpoint_url"));
  if (endpoint) {
    // Logged before the library validates (and refuses) it: a password written into it must not show.
    log_source("endpoint", Setting{endpoint_for_display(endpoint->value), endpoint->source});
    config.endpoint_url = endpoint->value;
  }

  // With --profile only the profile's keys count: botocore drops its environment provider then, so keys in
  // the environment are ignored even when the profile has none (and no credentials is the error). A profile
  // chosen by AWS_PROFILE does not drop them. Within the profile, the credentials file beats the config file
  // (load_profile merged them so).
  std::optional<sigv4::Credentials> credentials;
  if (choice.by_flag) {
    credentials = credentials_from_profile(profile);
    // Said here: left empty, the library would take the environment's keys itself.
    if (!credentials)
      throw UsageError("no credentials: profile " + choice.name +
                       " has no aws_access_key_id and aws_secret_access_key, and with --profile the "
                       "environment's AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not used");
    spdlog::debug("credentials from profile {} (--profile: the environment's are not used)", choice.name);
  } else if ((credentials = credentials_from_env())) {
    spdlog::debug("credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
  } else if ((credentials = credentials_from_profile(profile))) {
    spdlog::debug("credentials from profile {}", choice.name);
  }
  config.credentials = credentials;

  if (auto calculation = first_of(first_env({"AWS_REQUEST_CHECKSUM_CALCULATION"}),
                                  profile.get("request_checksum_calculation"))) {
    config.checksum_calculation = parse_checksum_calculation(calculation->value);
    if (!config.checksum_calculation)
      throw UsageError("request_checksum_calculation \"" + calculation->value + "\" from " +
                       calculation->source + " is not when_supported or when_required");
    log_source("request_checksum_calculation", calculation);
  }

  auto ca_bundle =
      first_of(from_flag(arguments, "ca-bundle"), first_env({"AWS_CA_BUNDLE"}), profile.get("ca_bundle"));
  log_source("ca_bundle", ca_bundle);
  if (ca_bundle) config.ca_bundle = expand_home(ca_bundle->value);

  // s3up's own key: no environment variable, as the AWS CLI has no such setting to mirror.
  if (auto provider = first_of(from_flag(arguments, "provider"), profile.get("provider"))) {
    auto parsed = parse_provider(provider->value);
    if (!parsed)
      throw UsageError("unknown provider \"" + provider->value + "\" from " + provider->source +
                       " (aws, minio, ceph, wasabi, scaleway, r2, b2, gcs, generic or auto)");
    config.provider = *parsed;
    log_source("provider", provider);
  }

  return config;
}

}  // namespace s3up::cli
