// cli/serve_command.cpp: `s3up serve`, the mock S3 server as a process. The first line on stdout is exactly
// "listening on <URL>", flushed at once, so scripts and tests can wait for it; SIGINT or SIGTERM stop it.
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "arguments.h"
#include "commands.h"
#include "s3up/mock_server.h"

namespace s3up::cli {
namespace {

constexpr const char* serve_usage = R"(usage: s3up serve [options]

Runs the strict mock S3 server until SIGINT or SIGTERM. Prints "listening on <URL>" first.

options:
  --listen HOST:PORT     address to bind (default 127.0.0.1:0, a free port)
  --tls                  HTTPS with a self-signed certificate for 127.0.0.1 and localhost
  --cert-out FILE        write that certificate (PEM) to FILE, for clients to trust
  --access-key KEY       accepted access key id (default AKIAIOSFODNN7EXAMPLE)
  --secret-key SECRET    its secret (default the AWS documentation example secret)
  --region REGION        region in the credential scope (default us-east-1)
  --data-dir DIR         store objects under DIR instead of in memory
  --reject-trailers      refuse aws-chunked checksum trailers, as Scaleway does
  --no-auto-buckets      a PUT to a missing bucket fails with NoSuchBucket
  --max-object-size SIZE refuse larger bodies with EntityTooLarge (default 5GiB, S3's single-PUT limit)
)";

}  // namespace

int run_serve(const std::vector<std::string>& args) {
  Arguments arguments(
      args, {"listen", "cert-out", "access-key", "secret-key", "region", "data-dir", "max-object-size"},
      {"tls", "reject-trailers", "no-auto-buckets", "help"});
  if (arguments.flag("help")) {
    std::fputs(serve_usage, stdout);
    return exit_success;
  }
  if (!arguments.positional().empty())
    throw UsageError("unexpected argument '" + arguments.positional()[0] + "'");

  mock::ServerOptions options;
  if (auto listen = arguments.value("listen")) {
    auto colon = listen->rfind(':');
    if (colon == std::string::npos) throw UsageError("--listen needs HOST:PORT, not '" + *listen + "'");
    options.listen_host = listen->substr(0, colon);
    const std::uint64_t port = parse_size(listen->substr(colon + 1));
    if (port > 65535) throw UsageError("port out of range in '" + *listen + "'");
    options.port = static_cast<std::uint16_t>(port);
  }
  options.tls = arguments.flag("tls");
  options.cert_out = arguments.value("cert-out").value_or("");
  options.access_key = arguments.value("access-key").value_or(options.access_key);
  options.secret_key = arguments.value("secret-key").value_or(options.secret_key);
  options.region = arguments.value("region").value_or(options.region);
  options.data_dir = arguments.value("data-dir").value_or("");
  options.reject_trailers = arguments.flag("reject-trailers");
  options.auto_create_buckets = !arguments.flag("no-auto-buckets");
  if (auto size = arguments.value("max-object-size")) options.max_object_size = parse_size(*size);
  if (!options.cert_out.empty() && !options.tls) throw UsageError("--cert-out needs --tls");

  // Block the stop signals before the server starts its threads, so that only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  mock::Server server(options);
  std::printf("listening on %s\n", server.url().c_str());
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  server.stop();
  const mock::ServerStats stats = server.stats();
  std::fprintf(stderr, "s3up serve: stopped by signal %d after %llu requests (%llu rejected)\n",
               signal_number, static_cast<unsigned long long>(stats.requests),
               static_cast<unsigned long long>(stats.rejected));
  return exit_success;
}

}  // namespace s3up::cli
