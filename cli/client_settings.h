// cli/client_settings.h: the ClientConfig of a command from its flags, the AWS_* environment variables and
// the AWS profile, in the AWS CLI's order of precedence: command-line flag, then environment, then profile.
#pragma once

#include "arguments.h"
#include "s3up/client.h"

namespace s3up::cli {

// Fills endpoint_url, region, credentials, checksum_calculation, ca_bundle and provider explicitly, so that
// the library's own reading of the environment never overrides a flag or lets the environment lose to a
// profile. A field no source sets stays empty (the library's default). Throws UsageError for a named profile
// that does not exist (--profile, AWS_DEFAULT_PROFILE or AWS_PROFILE), a --profile without keys (the
// environment's are not used then), a configuration file that cannot be parsed, half a pair of keys, or a
// value that is not one of its choices. Logs where each value came from, never a secret.
// Reads the value options --profile, --endpoint-url, --region, --ca-bundle and --provider.
ClientConfig resolve_client_config(const Arguments& arguments);

}  // namespace s3up::cli
