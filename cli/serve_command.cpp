// cli/serve_command.cpp: `s3up serve`, the mock S3 server as a process, and its fault-injection flags. The
// first line on stdout is exactly "listening on <URL>", flushed at once, so scripts and tests can wait for
// it; SIGINT or SIGTERM stop it.
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
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
  --emulate PROVIDER     refuse what that service refuses, with its errors: aws (default), minio, ceph,
                         wasabi, scaleway, r2, b2, gcs
  --no-auto-buckets      a PUT to a missing bucket fails with NoSuchBucket
  --max-object-size SIZE refuse larger bodies with EntityTooLarge (default 5GiB, S3's single-PUT limit)
  --no-md5-etag          ETag from the stored checksum instead of MD5 (MD5, ~0.7 GB/s, caps ingest);
                         Content-MD5 is still verified when sent. For benchmarks.
  --min-part-size SIZE   smallest multipart part but the last, else EntityTooSmall (default 5MiB, S3's)

fault injection, to see what a client does when things go wrong. Each fault hits the next N requests
(an optional :N is 1); requests hit by the first four store nothing. Faults are queued in this order:
  --fail-next N:STATUS:CODE
                         read the body, then answer with that S3 error, e.g. 2:503:SlowDown
  --malformed-response N:STATUS:BODY
                         read the body, then answer STATUS with BODY verbatim, e.g. 1:200:'<Error><Co'
  --reset-after BYTES[:N]
                         read BYTES body bytes (as on the wire), then reset the connection (TCP RST)
  --close-before-response N
                         read the whole request, then close the connection without an answer
  --slow-read BYTES_PER_SECOND[:N]
                         read the body no faster than that (e.g. 64KiB), then handle it as usual
  --delay-response MS[:N]
                         handle the request (an upload is stored), then wait MS milliseconds to answer
  --ignore-expect N      never answer Expect: 100-continue; read the body when the client sends it anyway
  --fault-method METHOD  the faults above hit only requests with that method (PUT, GET...), not any
)";

// A flag's value split at its first `parts - 1` colons (the last part keeps any further colons).
std::vector<std::string> split_value(const std::string& flag, const std::string& value, std::size_t min_parts,
                                     std::size_t parts) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (out.size() + 1 < parts) {
    std::size_t colon = value.find(':', begin);
    if (colon == std::string::npos) break;
    out.push_back(value.substr(begin, colon - begin));
    begin = colon + 1;
  }
  out.push_back(value.substr(begin));
  if (out.size() < min_parts) throw UsageError("--" + flag + ": cannot parse '" + value + "'");
  return out;
}

long parse_number(const std::string& flag, std::string_view text, long min, long max) {
  long number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end != text.data() + text.size() || number < min || number > max)
    throw UsageError("--" + flag + ": '" + std::string(text) + "' is not a number from " +
                     std::to_string(min) + " to " + std::to_string(max));
  return number;
}

int parse_count(const std::string& flag, std::string_view text) {
  return static_cast<int>(parse_number(flag, text, 1, 1000000));
}

// The faults the flags ask for, in the order the usage lists them.
std::vector<mock::Fault> parse_faults(const Arguments& arguments) {
  using Kind = mock::Fault::Kind;
  std::vector<mock::Fault> faults;
  auto add = [&](Kind kind, int count) -> mock::Fault& {
    mock::Fault& fault = faults.emplace_back();
    fault.kind = kind;
    fault.count = count;
    return fault;
  };
  if (auto value = arguments.value("fail-next")) {
    auto parts = split_value("fail-next", *value, 3, 3);
    mock::Fault& fault = add(Kind::error_response, parse_count("fail-next", parts[0]));
    fault.status = static_cast<int>(parse_number("fail-next", parts[1], 300, 599));
    fault.code = parts[2];
    if (fault.code.empty()) throw UsageError("--fail-next needs an S3 error code, e.g. 1:503:SlowDown");
  }
  if (auto value = arguments.value("malformed-response")) {
    auto parts = split_value("malformed-response", *value, 3, 3);
    mock::Fault& fault = add(Kind::malformed_response, parse_count("malformed-response", parts[0]));
    fault.status = static_cast<int>(parse_number("malformed-response", parts[1], 200, 599));
    fault.body = parts[2];
  }
  if (auto value = arguments.value("reset-after")) {
    auto parts = split_value("reset-after", *value, 1, 2);
    mock::Fault& fault =
        add(Kind::reset_after_bytes, parts.size() > 1 ? parse_count("reset-after", parts[1]) : 1);
    fault.after_bytes = parse_size(parts[0]);
  }
  if (auto value = arguments.value("close-before-response"))
    add(Kind::close_before_response, parse_count("close-before-response", *value));
  if (auto value = arguments.value("slow-read")) {
    auto parts = split_value("slow-read", *value, 1, 2);
    mock::Fault& fault = add(Kind::slow_read, parts.size() > 1 ? parse_count("slow-read", parts[1]) : 1);
    fault.bytes_per_second = parse_size(parts[0]);
  }
  if (auto value = arguments.value("delay-response")) {
    auto parts = split_value("delay-response", *value, 1, 2);
    mock::Fault& fault =
        add(Kind::delay_response, parts.size() > 1 ? parse_count("delay-response", parts[1]) : 1);
    fault.delay = std::chrono::milliseconds(parse_number("delay-response", parts[0], 0, 24L * 3600 * 1000));
  }
  if (auto value = arguments.value("ignore-expect"))
    add(Kind::ignore_expect, parse_count("ignore-expect", *value));
  const std::string method = arguments.value("fault-method").value_or("");
  if (!method.empty() && faults.empty()) throw UsageError("--fault-method needs a fault to apply to");
  for (auto& fault : faults) fault.method = method;
  return faults;
}

}  // namespace

int run_serve(const std::vector<std::string>& args) {
  Arguments arguments(
      args,
      {"listen", "cert-out", "access-key", "secret-key", "region", "data-dir", "max-object-size",
       "min-part-size", "fail-next", "malformed-response", "reset-after", "close-before-response",
       "slow-read", "delay-response", "ignore-expect", "fault-method", "emulate"},
      {"tls", "reject-trailers", "no-auto-buckets", "no-md5-etag", "help"});
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
  if (auto name = arguments.value("emulate")) {
    auto emulation = mock::parse_emulation(*name);
    if (!emulation) {
      throw UsageError("--emulate: '" + *name + "' is not aws, minio, ceph, wasabi, scaleway, r2, b2 or gcs");
    }
    options.emulate = *emulation;
  }
  options.auto_create_buckets = !arguments.flag("no-auto-buckets");
  options.md5_etag = !arguments.flag("no-md5-etag");
  if (auto size = arguments.value("max-object-size")) options.max_object_size = parse_size(*size);
  if (auto size = arguments.value("min-part-size")) options.min_part_size = parse_size(*size);
  if (!options.cert_out.empty() && !options.tls) throw UsageError("--cert-out needs --tls");
  const std::vector<mock::Fault> faults = parse_faults(arguments);

  // Block the stop signals before the server starts its threads, so that only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  mock::Server server(options);
  for (const auto& fault : faults) {
    try {
      server.inject_fault(fault);
    } catch (const std::invalid_argument& error) {
      throw UsageError(error.what());
    }
  }
  std::printf("listening on %s\n", server.url().c_str());
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  server.stop();
  const mock::ServerStats stats = server.stats();
  std::fprintf(stderr, "s3up serve: stopped by signal %d after %llu requests (%llu rejected)\n",
               signal_number, static_cast<unsigned long long>(stats.requests),
               static_cast<unsigned long long>(stats.rejected));
  if (std::size_t pending = server.pending_faults(); pending > 0)
    std::fprintf(stderr, "s3up serve: %zu requests were still to be hit by injected faults\n", pending);
  return exit_success;
}

}  // namespace s3up::cli
