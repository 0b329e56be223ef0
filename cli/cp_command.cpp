// cli/cp_command.cpp: `s3up cp FILE s3://BUCKET/KEY`, one put_object of a local file. Exit 0 only when the
// server confirmed the object and echoed the checksum we sent.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "arguments.h"
#include "commands.h"
#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up::cli {
namespace {

constexpr const char* cp_usage = R"(usage: s3up cp FILE s3://BUCKET/KEY [options]

Uploads FILE in one PUT. A KEY that is empty or ends in '/' gets the file name appended.

options:
  --endpoint-url URL            S3 endpoint (env AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL; default AWS)
  --region REGION               signing region (env AWS_REGION, AWS_DEFAULT_REGION; default us-east-1)
  --checksum-algorithm ALG      CRC32 (default), CRC32C, CRC64NVME, SHA1, SHA256 or NONE
  --checksum-location WHERE     auto (default), trailer, header or none
                                  auto: aws-chunked trailer over HTTPS to AWS (or --endpoint-accepts-trailers),
                                  else a header after one pre-read of the file
  --endpoint-accepts-trailers   the custom endpoint accepts aws-chunked trailers
  --signed-payload              sign the payload: hex SHA-256 in header mode, signed aws-chunked when streamed
  --content-md5                 also send Content-MD5
  --content-type TYPE           Content-Type of the object
  --chunk-size SIZE             aws-chunked chunk size, at least 8KiB (default 64KiB)
  --ca-bundle PEM               trust these CA certificates (env AWS_CA_BUNDLE)
  --no-verify-ssl               do not verify the server's TLS certificate (logs a warning)
  --path-style                  path-style addressing (https://host/bucket/key)
  --quiet                       print nothing on success
credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN
checksum calculation: AWS_REQUEST_CHECKSUM_CALCULATION=when_supported (default) | when_required
)";

struct S3Url {
  std::string bucket;
  std::string key;
};

S3Url parse_s3_url(const std::string& text, const std::string& file) {
  constexpr std::string_view scheme = "s3://";
  if (text.rfind(scheme, 0) != 0)
    throw UsageError("destination must look like s3://BUCKET/KEY, not '" + text + "'");
  std::string rest = text.substr(scheme.size());
  auto slash = rest.find('/');
  S3Url url{rest.substr(0, slash), slash == std::string::npos ? "" : rest.substr(slash + 1)};
  if (url.bucket.empty()) throw UsageError("no bucket in '" + text + "'");
  if (url.key.empty() || url.key.back() == '/') url.key += std::filesystem::path(file).filename().string();
  return url;
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
      return exit_network_error;
    case Error::Kind::service:
    case Error::Kind::checksum_mismatch:
    case Error::Kind::protocol:
      return exit_service_error;
  }
  return exit_failure;
}

int run_cp(const std::vector<std::string>& args) {
  Arguments arguments(args,
                      {"endpoint-url", "region", "checksum-algorithm", "checksum-location", "chunk-size",
                       "ca-bundle", "content-type"},
                      {"signed-payload", "content-md5", "no-verify-ssl", "path-style", "quiet", "help",
                       "endpoint-accepts-trailers"});
  if (arguments.flag("help")) {
    std::fputs(cp_usage, stdout);
    return exit_success;
  }
  if (arguments.positional().size() != 2) throw UsageError("expected FILE and s3://BUCKET/KEY");
  const std::string& file = arguments.positional()[0];
  const S3Url destination = parse_s3_url(arguments.positional()[1], file);

  ClientConfig config;
  config.endpoint_url = arguments.value("endpoint-url").value_or("");
  config.region = arguments.value("region").value_or("");
  config.ca_bundle = arguments.value("ca-bundle").value_or("");
  config.verify_tls = !arguments.flag("no-verify-ssl");
  config.endpoint_accepts_trailers = arguments.flag("endpoint-accepts-trailers");
  if (arguments.flag("path-style")) config.addressing = Addressing::path_style;
  if (auto size = arguments.value("chunk-size")) config.chunk_size = parse_size(*size);

  PutObjectOptions options;
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

  std::optional<FileSource> source;
  try {
    source.emplace(file);
  } catch (const BodyError& error) {
    std::fprintf(stderr, "s3up cp: %s\n", error.what());
    return exit_local_io;
  }

  Client client(config);
  Result<PutObjectResult> result = client.put_object(destination.bucket, destination.key, *source, options);
  if (!result) {
    std::fprintf(stderr, "s3up cp: upload of %s to s3://%s/%s failed: %s\n", file.c_str(),
                 destination.bucket.c_str(), destination.key.c_str(), result.error().to_string().c_str());
    return exit_code_for(result.error());
  }
  if (!arguments.flag("quiet")) {
    const PutObjectResult& put = result.value();
    std::printf("upload: %s to s3://%s/%s (%s)\n", file.c_str(), destination.bucket.c_str(),
                destination.key.c_str(), format_size(put.bytes).c_str());
    std::printf("etag: %s\n", put.etag.c_str());
    if (put.checksum_algorithm) {
      std::printf("checksum: %s %s (%s; server echoed %s)\n",
                  std::string(algorithm_name(*put.checksum_algorithm)).c_str(), put.checksum_sent.c_str(),
                  std::string(to_string(put.checksum_location)).c_str(),
                  put.checksum_returned.empty() ? "nothing" : put.checksum_returned.c_str());
    } else {
      std::printf("checksum: none\n");
    }
  }
  return exit_success;
}

}  // namespace s3up::cli
