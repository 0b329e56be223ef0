// cli/cp_command.cpp: `s3up cp FILE|- s3://BUCKET/KEY`: upload() of a local file or of standard input, by one
// PutObject below the multipart threshold and in parallel parts above it, with retries, timeouts and Ctrl-C
// cancellation. Exit 0 only when the server confirmed the object and its checksum is the one we computed.
#include <malloc.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "arguments.h"
#include "client_settings.h"
#include "commands.h"
#include "interrupt_watcher.h"
#include "json_output.h"
#include "progress_bar.h"
#include "s3up/body.h"
#include "s3up/client.h"
#include "s3up/transfer.h"

namespace s3up::cli {
namespace {

constexpr const char* cp_usage = R"(usage: s3up cp FILE|- s3://BUCKET/KEY [options]

Uploads FILE, or standard input for '-' (of unknown length: read part by part), in one PUT below the
multipart threshold and as a multipart upload of parallel parts at or above it. A KEY that is empty or ends
in '/' gets the file name appended. A multipart upload that fails is aborted: no parts are left behind.

options:
  --profile NAME                AWS profile from ~/.aws/config and ~/.aws/credentials (env
                                  AWS_DEFAULT_PROFILE, then AWS_PROFILE; default: "default", when it
                                  exists); with --profile only the profile's keys are used, never
                                  AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
  --endpoint-url URL            S3 endpoint (env AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL; profile
                                  s3.endpoint_url, endpoint_url; default AWS)
  --region REGION               signing region (env AWS_REGION, AWS_DEFAULT_REGION; profile region;
                                  default us-east-1)
  --checksum-algorithm ALG      CRC32 (default), CRC32C, CRC64NVME, SHA1, SHA256 or NONE
  --checksum-type TYPE          multipart only: FULL_OBJECT (default for CRCs; the CRC of the whole object,
                                  combined from the parts') or COMPOSITE (default for SHA1/SHA256; the
                                  checksum of the part checksums, "-N"); CRC64NVME is FULL_OBJECT only,
                                  SHA1 and SHA256 COMPOSITE only
  --multipart-threshold SIZE    objects of at least SIZE go multipart (default 16MiB)
  --part-size SIZE              part size, at least 5MiB (default 8MiB); raised automatically so that a
                                  file needs at most 10,000 parts (standard input: SIZE x 10,000 at most)
  --concurrency N               parts in flight at once, 1 to 64 (default 4); standard input is read into
                                  N buffers of the part size, so it takes N x part size of memory
  --checksum-location WHERE     auto (default), trailer, header or none
                                  auto: aws-chunked trailer over HTTPS to AWS (or --endpoint-accepts-trailers),
                                  else a header after one pre-read of the file
  --endpoint-accepts-trailers   the custom endpoint accepts aws-chunked trailers
  --signed-payload              sign the payload: hex SHA-256 in header mode, signed aws-chunked when streamed
  --content-md5                 also send Content-MD5
  --content-type TYPE           Content-Type of the object
  --chunk-size SIZE             aws-chunked chunk size, at least 8KiB (default 64KiB)
  --ca-bundle PEM               trust these CA certificates (env AWS_CA_BUNDLE; profile ca_bundle)
  --provider NAME               the S3 service behind the endpoint, which decides what is sent: aws,
                                  minio, ceph, wasabi, scaleway, r2, b2, gcs, generic or auto (default:
                                  detected from the endpoint's host; profile key: provider)
  --no-verify-ssl               do not verify the server's TLS certificate (logs a warning)
  --path-style                  path-style addressing (https://host/bucket/key)
  --max-attempts N              tries per request, the first included (env AWS_MAX_ATTEMPTS; default 3;
                                  1: no retry). Retried: connection failures, timeouts, HTTP 500/502/503/504,
                                  400 RequestTimeout, with exponential backoff and full jitter
  --connect-timeout SECONDS     give up a connection attempt after this long (default 10)
  --stall-timeout SECONDS       fail an attempt when no byte moves for this long (default 60; 0: never);
                                  whole seconds
  --timeout SECONDS             deadline of the whole upload, every retry included (default: none)
  --output text|json            the result as lines of text (default) or as one JSON object on stdout:
                                  bucket, key, bytes, seconds, etag, checksum_algorithm, checksum,
                                  checksum_type, checksum_location, parts, attempts
  --no-progress                 no progress bar (it is shown on stderr only when stderr is a terminal)
  --quiet                       print nothing on success, and no progress bar

configuration: each setting comes from its flag, else its environment variable, else the profile
  (the credentials file beats the config file), else the default, as with the AWS CLI.
  files: AWS_CONFIG_FILE (default ~/.aws/config: [default], [profile NAME]) and AWS_SHARED_CREDENTIALS_FILE
    (default ~/.aws/credentials: [NAME]); profile keys aws_access_key_id, aws_secret_access_key,
    aws_session_token, region, endpoint_url (also nested: "s3 =" then "  endpoint_url = URL"),
    request_checksum_calculation, ca_bundle, provider (s3up's own)
  credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, or the profile
  checksum calculation: AWS_REQUEST_CHECKSUM_CALCULATION=when_supported (default) | when_required
exit codes: 0 uploaded and confirmed, 2 usage, 3 local file or body error, 4 the server refused it,
            5 network, TLS or timeout (after the retries), 130 interrupted: Ctrl-C (SIGINT) cancelled the
            upload before the server confirmed it (a second Ctrl-C exits at once)
)";

struct S3Url {
  std::string bucket;
  std::string key;
};

// Standard input, read as it comes: its length is unknown and it cannot be read twice.
class StdinSource final : public BodySource {
 public:
  std::size_t read(std::span<std::byte> dest) override {
    for (;;) {
      const ssize_t n = ::read(STDIN_FILENO, dest.data(), dest.size());
      if (n >= 0) return static_cast<std::size_t>(n);
      if (errno != EINTR) {
        throw BodyError(BodyError::Kind::read_failed,
                        std::string("cannot read standard input: ") + std::strerror(errno));
      }
    }
  }
  std::optional<std::uint64_t> size() const override { return std::nullopt; }
  bool can_rewind() const override { return false; }
  void rewind() override {
    throw BodyError(BodyError::Kind::not_rewindable, "standard input cannot be read again");
  }
};

S3Url parse_s3_url(const std::string& text, const std::string& file) {
  constexpr std::string_view scheme = "s3://";
  if (text.rfind(scheme, 0) != 0)
    throw UsageError("destination must look like s3://BUCKET/KEY, not '" + text + "'");
  std::string rest = text.substr(scheme.size());
  auto slash = rest.find('/');
  S3Url url{rest.substr(0, slash), slash == std::string::npos ? "" : rest.substr(slash + 1)};
  if (url.bucket.empty()) throw UsageError("no bucket in '" + text + "'");
  if (url.key.empty() || url.key.back() == '/') {
    if (file == "-")
      throw UsageError("standard input has no file name: give the whole key in '" + text + "'");
    url.key += std::filesystem::path(file).filename().string();
  }
  return url;
}

// "2", "0.5", "10": seconds as milliseconds. Throws UsageError.
std::chrono::milliseconds parse_seconds(const std::string& option, const std::string& text) {
  double seconds = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || !(seconds >= 0) || seconds > 1e9) {
    throw UsageError("--" + option + " needs a number of seconds, not '" + text + "'");
  }
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000 + 0.5));
}

// A whole number from 1 to 100: attempts per request. `from` names where the text came from.
int parse_attempts(const std::string& from, const std::string& text) {
  int attempts = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), attempts);
  if (ec != std::errc() || end != text.data() + text.size() || attempts < 1 || attempts > 100) {
    throw UsageError(from + " needs a whole number of attempts from 1 to 100, not '" + text + "'");
  }
  return attempts;
}

// The retry and timeout options over ClientConfig's defaults. AWS_MAX_ATTEMPTS is read here, not in the
// library: ClientConfig::retry.max_attempts is an explicit value (3 by default) that the environment cannot
// tell from a chosen 3, while AWS CLI users expect the variable to work, with the option beating it.
void apply_retry_options(const Arguments& arguments, ClientConfig& config) {
  if (auto text = arguments.value("max-attempts")) {
    config.retry.max_attempts = parse_attempts("--max-attempts", *text);
  } else if (const char* env = std::getenv("AWS_MAX_ATTEMPTS"); env != nullptr && *env != '\0') {
    config.retry.max_attempts = parse_attempts("AWS_MAX_ATTEMPTS", env);
  }
  if (auto text = arguments.value("connect-timeout")) {
    config.connect_timeout = parse_seconds("connect-timeout", *text);
  }
  if (auto text = arguments.value("stall-timeout")) {
    const auto stall = parse_seconds("stall-timeout", *text);
    if (stall.count() % 1000 != 0)
      throw UsageError("--stall-timeout takes whole seconds, not '" + *text + "'");
    config.stall_timeout = std::chrono::duration_cast<std::chrono::seconds>(stall);
  }
  if (auto text = arguments.value("timeout")) config.request_timeout = parse_seconds("timeout", *text);
}

// --multipart-threshold, --part-size, --concurrency, --checksum-type. Whether a part size is one S3 takes is
// upload()'s to say (an invalid_argument: exit code 2).
void apply_multipart_options(const Arguments& arguments, UploadOptions& options) {
  if (auto text = arguments.value("multipart-threshold")) options.multipart_threshold = parse_size(*text);
  if (auto text = arguments.value("part-size")) options.part_size = parse_size(*text);
  if (auto text = arguments.value("concurrency")) {
    int concurrency = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), concurrency);
    if (ec != std::errc() || end != text->data() + text->size() || concurrency < 1 || concurrency > 64) {
      throw UsageError("--concurrency needs a whole number from 1 to 64, not '" + *text + "'");
    }
    options.concurrency = concurrency;
  }
  if (auto text = arguments.value("checksum-type")) {
    options.checksum_type = parse_checksum_type(*text);
    if (!options.checksum_type) {
      throw UsageError("unknown checksum type '" + *text + "' (COMPOSITE or FULL_OBJECT)");
    }
  }
}

}  // namespace

int exit_code_for(const Error& error) {
  switch (error.kind) {
    case Error::Kind::invalid_argument:
      return exit_usage;
    case Error::Kind::body:
      return exit_local_io;
    case Error::Kind::network:
    case Error::Kind::tls:
    case Error::Kind::timeout:
      return exit_network_error;
    case Error::Kind::cancelled:  // only Ctrl-C cancels in the command
      return exit_interrupted;
    case Error::Kind::service:
    case Error::Kind::checksum_mismatch:
    case Error::Kind::protocol:
      return exit_service_error;
  }
  return exit_failure;
}

int run_cp(const std::vector<std::string>& args) {
  // One malloc arena for every thread: cp allocates little and rarely, and glibc's per-thread arenas each
  // keep ~0.5 MiB resident, which with 4 part threads put the process above 16 MB (see README, Benchmarks).
  mallopt(M_ARENA_MAX, 1);
  Arguments arguments(
      args,
      {"endpoint-url", "region", "checksum-algorithm", "checksum-location", "chunk-size", "ca-bundle",
       "content-type", "max-attempts", "connect-timeout", "stall-timeout", "timeout", "multipart-threshold",
       "part-size", "concurrency", "checksum-type", "profile", "output", "provider"},
      {"signed-payload", "content-md5", "no-verify-ssl", "path-style", "quiet", "help",
       "endpoint-accepts-trailers", "no-progress"});
  if (arguments.flag("help")) {
    std::fputs(cp_usage, stdout);
    return exit_success;
  }
  if (arguments.positional().size() != 2) throw UsageError("expected FILE and s3://BUCKET/KEY");
  const std::string& file = arguments.positional()[0];
  const S3Url destination = parse_s3_url(arguments.positional()[1], file);
  const std::string output_format = arguments.value("output").value_or("text");
  if (output_format != "text" && output_format != "json")
    throw UsageError("--output takes text or json, not '" + output_format + "'");

  // Flag, then environment, then profile, each set explicitly so the library's environment defaults apply
  // only to what no source gave.
  ClientConfig config = resolve_client_config(arguments);
  config.verify_tls = !arguments.flag("no-verify-ssl");
  config.endpoint_accepts_trailers = arguments.flag("endpoint-accepts-trailers");
  if (arguments.flag("path-style")) config.addressing = Addressing::path_style;
  if (auto size = arguments.value("chunk-size")) config.chunk_size = parse_size(*size);
  apply_retry_options(arguments, config);

  UploadOptions upload_options;
  apply_multipart_options(arguments, upload_options);
  PutObjectOptions& options = upload_options.put;
  options.signed_payload = arguments.flag("signed-payload");
  options.content_md5 = arguments.flag("content-md5");
  options.content_type = arguments.value("content-type").value_or("");
  if (auto text = arguments.value("checksum-algorithm")) {
    if (ascii_iequals(*text, "none")) {
      options.checksum_location = ChecksumLocation::none;
    } else if (auto algorithm = parse_algorithm(*text); algorithm && *algorithm != ChecksumAlgorithm::md5) {
      options.checksum_algorithm = algorithm;
    } else {
      throw UsageError("unknown checksum algorithm '" + *text + "'");
    }
  }
  if (auto text = arguments.value("checksum-location"); text && !options.checksum_location) {
    options.checksum_location = parse_checksum_location(*text);
    if (!options.checksum_location) throw UsageError("unknown checksum location '" + *text + "'");
  }

  std::unique_ptr<BodySource> source;
  try {
    if (file == "-") {
      source = std::make_unique<StdinSource>();
    } else {
      source = std::make_unique<FileSource>(file);
    }
  } catch (const BodyError& error) {
    std::fprintf(stderr, "s3up cp: %s\n", error.what());
    return exit_local_io;
  }

  std::stop_source stop;
  upload_options.cancel = stop.get_token();
  std::optional<ProgressBar> progress;
  if (progress_wanted(arguments.flag("quiet") || arguments.flag("no-progress"))) {
    progress.emplace(stderr);
    upload_options.progress = [&progress](const UploadProgress& state) {
      progress->update(state.bytes_sent, state.total_bytes);
    };
  }
  const auto started = std::chrono::steady_clock::now();
  Result<UploadResult> result = [&] {
    // Ctrl-C cancels the upload in flight (its parts, or a backoff) rather than killing the process
    // mid-request, so that the command can still abort a multipart upload and say what happened; the
    // watcher lives only as long as the upload.
    InterruptWatcher watcher([&stop] { stop.request_stop(); });
    return upload(config, destination.bucket, destination.key, *source, upload_options);
  }();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (progress) progress->finish();
  if (!result && result.error().kind == Error::Kind::cancelled) {
    std::fprintf(
        stderr,
        "s3up cp: interrupted: the upload of %s to s3://%s/%s was cancelled before the server confirmed it\n",
        file.c_str(), destination.bucket.c_str(), destination.key.c_str());
    return exit_interrupted;
  }
  if (!result) {
    std::fprintf(stderr, "s3up cp: upload of %s to s3://%s/%s failed: %s\n", file.c_str(),
                 destination.bucket.c_str(), destination.key.c_str(), result.error().to_string().c_str());
    return exit_code_for(result.error());
  }
  if (output_format == "json") {
    // The JSON object even with --quiet: asking for it is asking for output.
    std::printf("%s\n", upload_json(destination.bucket, destination.key, result.value(), seconds).c_str());
  } else if (!arguments.flag("quiet")) {
    const UploadResult& uploaded = result.value();
    std::printf("upload: %s to s3://%s/%s (%s)\n", file.c_str(), destination.bucket.c_str(),
                destination.key.c_str(), format_size(uploaded.bytes).c_str());
    std::printf("etag: %s\n", uploaded.etag.c_str());
    if (uploaded.parts > 0) std::printf("parts: %d\n", uploaded.parts);
    if (uploaded.checksum_algorithm) {
      // Confirmed: the server's value is the one computed here (from the whole body, or from the parts').
      std::printf("checksum: %s %s (%s; %s)\n",
                  std::string(algorithm_name(*uploaded.checksum_algorithm)).c_str(),
                  uploaded.checksum.c_str(), std::string(to_string(uploaded.checksum_location)).c_str(),
                  uploaded.checksum_type ? std::string(to_string(*uploaded.checksum_type)).c_str() : "");
    } else {
      std::printf("checksum: none\n");
    }
  }
  return exit_success;
}

}  // namespace s3up::cli
