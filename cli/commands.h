// cli/commands.h: the s3up subcommands and the exit codes they share.
#pragma once

#include <string>
#include <vector>

#include "s3up/client.h"

namespace s3up::cli {

// Exit codes, documented in the README and in `s3up --help`.
enum ExitCode : int {
  exit_success = 0,
  exit_failure = 1,        // anything not listed below, e.g. the demo found a mismatch
  exit_usage = 2,          // the command was called wrongly
  exit_local_io = 3,       // a local file could not be read, or the body was not what it declared
  exit_service_error = 4,  // the server refused the request, or stored a checksum other than ours
  exit_network_error = 5,  // connection, TLS or timeout
  exit_interrupted = 130,  // Ctrl-C (SIGINT) cancelled the command: 128 + SIGINT, as shells report it
};

int run_cp(const std::vector<std::string>& args);
int run_serve(const std::vector<std::string>& args);
int run_demo(const std::vector<std::string>& args);

// Maps a client error to the exit code above.
int exit_code_for(const Error& error);

}  // namespace s3up::cli
