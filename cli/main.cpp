// cli/main.cpp: the s3up command: dispatches to cp, serve and demo, and sets up logging on stderr.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "arguments.h"
#include "commands.h"

namespace {

constexpr const char* usage_text = R"(usage: s3up <command> [options]

commands:
  cp FILE|- s3://BUCKET/KEY upload a file or standard input, in parts when large (s3up cp --help)
  serve                     run the strict mock S3 server (s3up serve --help)
  demo                      upload to an embedded mock server in every mode and print a table

global options (before or after the command):
  --debug                   trace logging on stderr (secrets and signatures are never logged)
  -h, --help                this text; `s3up COMMAND --help` for a command's options

environment (a command-line flag beats its variable, which beats the AWS profile):
  AWS_DEFAULT_PROFILE, AWS_PROFILE  profile of ~/.aws/config and ~/.aws/credentials, the first set
                            (--profile beats both)
  AWS_CONFIG_FILE           the config file (default ~/.aws/config)
  AWS_SHARED_CREDENTIALS_FILE  the credentials file (default ~/.aws/credentials)
  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN  credentials
  AWS_REGION, AWS_DEFAULT_REGION  signing region (default us-east-1)
  AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL  S3 endpoint (default AWS's for the region)
  AWS_CA_BUNDLE             PEM file of the CA certificates to trust
  AWS_REQUEST_CHECKSUM_CALCULATION  when_supported (default) or when_required
  AWS_MAX_ATTEMPTS          tries per request (default 3)
  S3UP_LOG_LEVEL            trace, debug, info, warn (default), error, off

exit codes: 0 success, 1 other failure, 2 usage, 3 local I/O or body error,
            4 server refused the request, 5 network, TLS or timeout failure,
            130 interrupted (Ctrl-C cancelled the command)
)";

// Logs go to stderr so that stdout stays for results ("listening on ..." lines, JSON, tables).
void set_up_logging(bool debug) {
  auto logger = spdlog::stderr_color_mt("s3up");
  logger->set_pattern("%^[%l]%$ %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::warn);
  if (const char* level = std::getenv("S3UP_LOG_LEVEL")) spdlog::set_level(spdlog::level::from_str(level));
  if (debug) spdlog::set_level(spdlog::level::trace);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool debug = false;
  std::erase_if(args, [&](const std::string& arg) { return arg == "--debug" && (debug = true); });
  set_up_logging(debug);

  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(usage_text, args.empty() ? stderr : stdout);
    return args.empty() ? s3up::cli::exit_usage : s3up::cli::exit_success;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "cp") return s3up::cli::run_cp(args);
    if (command == "serve") return s3up::cli::run_serve(args);
    if (command == "demo") return s3up::cli::run_demo(args);
    std::fprintf(stderr, "s3up: unknown command '%s'\n\n%s", command.c_str(), usage_text);
    return s3up::cli::exit_usage;
  } catch (const s3up::cli::UsageError& error) {
    std::fprintf(stderr, "s3up %s: %s (see s3up %s --help)\n", command.c_str(), error.what(),
                 command.c_str());
    return s3up::cli::exit_usage;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "s3up %s: %s\n", command.c_str(), error.what());
    return s3up::cli::exit_failure;
  }
}
