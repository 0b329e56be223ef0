// cli/demo_command.cpp: `s3up demo`, the main job shown to a new user. It starts the embedded mock server
// over HTTP and HTTPS, generates a file, uploads it in each mode, reads each object back and prints a table.
// A row says "yes" only when the server verified the checksum, echoed the value we computed independently
// here, and the bytes read back hash to the file's SHA-256.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "arguments.h"
#include "commands.h"
#include "s3up/body.h"
#include "s3up/checksum.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

namespace s3up::cli {
namespace {

constexpr const char* demo_usage = R"(usage: s3up demo [--size SIZE] [--chunk-size SIZE]

Starts the embedded mock S3 server (HTTP and HTTPS on 127.0.0.1), generates a file of SIZE bytes
(default 256MiB) in a temporary directory, uploads it once in each mode, reads every object back, and
prints a table. Exit code 0 only when every row is verified.
)";

constexpr std::size_t io_buffer_size = 1 << 20;

// A temporary directory removed on scope exit.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "s3up-demo-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Deterministic pseudo-random bytes (xorshift64*), so the object is not trivially compressible.
void write_demo_file(const std::filesystem::path& path, std::uint64_t size) {
  std::ofstream out(path, std::ios::binary);
  std::vector<std::uint64_t> block(io_buffer_size / sizeof(std::uint64_t));
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (std::uint64_t written = 0; written < size;) {
    for (auto& word : block) {
      state ^= state >> 12;
      state ^= state << 25;
      state ^= state >> 27;
      word = state * 0x2545F4914F6CDD1Dull;
    }
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(io_buffer_size, size - written));
    out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(n));
    written += n;
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
}

// The file's digests for every algorithm the demo uses, computed here in one pass, independently of the
// upload path: the references each row is checked against.
std::map<ChecksumAlgorithm, std::string> reference_digests(const std::filesystem::path& path) {
  const ChecksumAlgorithm algorithms[] = {ChecksumAlgorithm::crc32, ChecksumAlgorithm::crc32c,
                                          ChecksumAlgorithm::crc64nvme, ChecksumAlgorithm::sha256};
  std::vector<std::unique_ptr<Checksum>> checksums;
  for (ChecksumAlgorithm algorithm : algorithms) checksums.push_back(make_checksum(algorithm));
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buffer(io_buffer_size);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    const auto piece = std::as_bytes(std::span(buffer.data(), static_cast<std::size_t>(in.gcount())));
    for (auto& checksum : checksums) checksum->update(piece);
  }
  std::map<ChecksumAlgorithm, std::string> digests;
  for (auto& checksum : checksums) digests[checksum->algorithm()] = checksum->finish().base64();
  return digests;
}

struct DemoMode {
  const char* name;
  bool https;
  ChecksumAlgorithm algorithm;
  ChecksumLocation location;
  bool signed_payload;
};

// automatic resolves to the trailer over HTTPS (the endpoint is declared trailer-capable) and to the
// header over HTTP; the signed rows force their location.
constexpr DemoMode demo_modes[] = {
    {"trailer (STREAMING-UNSIGNED-PAYLOAD-TRAILER)", true, ChecksumAlgorithm::crc32,
     ChecksumLocation::automatic, false},
    {"header after pre-read (UNSIGNED-PAYLOAD)", false, ChecksumAlgorithm::crc32, ChecksumLocation::automatic,
     false},
    {"signed streaming + trailer", true, ChecksumAlgorithm::crc64nvme, ChecksumLocation::trailer, true},
    {"signed payload (hex SHA-256) + header", false, ChecksumAlgorithm::crc32c, ChecksumLocation::header,
     true},
};

struct Row {
  std::string mode;
  std::string transport;
  std::string algorithm;
  std::string location;
  double seconds = 0;
  bool verified = false;
  std::string problem;
};

}  // namespace

int run_demo(const std::vector<std::string>& args) {
  Arguments arguments(args, {"size", "chunk-size"}, {"help"});
  if (arguments.flag("help")) {
    std::fputs(demo_usage, stdout);
    return exit_success;
  }
  const std::uint64_t size = parse_size(arguments.value("size").value_or("256MiB"));
  const std::size_t chunk_size = parse_size(arguments.value("chunk-size").value_or("64KiB"));

  TemporaryDirectory directory;
  const std::filesystem::path file = directory.path() / "demo-object.bin";
  const std::filesystem::path certificate = directory.path() / "mock-server.pem";
  std::printf("s3up demo: generating %s in %s\n", format_size(size).c_str(), file.c_str());
  std::fflush(stdout);
  write_demo_file(file, size);
  const auto expected = reference_digests(file);

  // The servers verify every checksum but skip the MD5 ETag (ServerOptions::md5_etag): at ~0.7 GB/s on one
  // core it would time the server's hashing, not the upload.
  mock::ServerOptions http_options;
  http_options.md5_etag = false;
  mock::Server http_server(http_options);
  mock::ServerOptions https_options = http_options;
  https_options.tls = true;
  https_options.cert_out = certificate.string();
  mock::Server https_server(https_options);
  std::printf("mock S3 servers: %s and %s\n\n", http_server.url().c_str(), https_server.url().c_str());

  std::vector<Row> rows;
  for (const DemoMode& mode : demo_modes) {
    ClientConfig config;
    config.endpoint_url = mode.https ? https_server.url() : http_server.url();
    config.region = "us-east-1";
    config.credentials = sigv4::Credentials{mock::default_access_key, mock::default_secret_key, ""};
    config.ca_bundle = certificate.string();
    config.endpoint_accepts_trailers = true;
    config.chunk_size = chunk_size;
    config.checksum_calculation = ChecksumCalculation::when_supported;
    Client client(config);

    PutObjectOptions options;
    options.checksum_algorithm = mode.algorithm;
    options.checksum_location = mode.location;
    options.signed_payload = mode.signed_payload;

    Row row{
        mode.name, mode.https ? "HTTPS" : "HTTP", std::string(algorithm_name(mode.algorithm)), "", 0, false,
        ""};
    FileSource source(file);
    const auto start = std::chrono::steady_clock::now();
    Result<PutObjectResult> put = client.put_object("demo", "object", source, options);
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (!put) {
      row.problem = put.error().to_string();
    } else {
      row.location = std::string(to_string(put->checksum_location));
      Sha256 readback_sha256;
      Result<GetObjectResult> get = client.get_object(
          "demo", "object", [&](std::span<const std::byte> piece) { readback_sha256.update(piece); });
      const std::string readback = readback_sha256.finish().base64();
      if (put->checksum_sent != expected.at(mode.algorithm)) {
        row.problem = "sent checksum " + put->checksum_sent + " != " + expected.at(mode.algorithm);
      } else if (put->checksum_returned != put->checksum_sent) {
        row.problem = "server stored " + put->checksum_returned;
      } else if (!get) {
        row.problem = "read back failed: " + get.error().to_string();
      } else if (get->bytes != size || readback != expected.at(ChecksumAlgorithm::sha256)) {
        row.problem = "read back differs from the file";
      } else {
        row.verified = true;
      }
      client.delete_object("demo", "object");
    }
    rows.push_back(row);
  }

  std::printf("%-46s %-5s %-9s %-8s %10s %8s %9s  %s\n", "mode", "via", "algorithm", "location", "size",
              "seconds", "MB/s", "verified");
  bool all_verified = true;
  for (const Row& row : rows) {
    const double megabytes_per_second = row.seconds > 0 ? static_cast<double>(size) / 1e6 / row.seconds : 0;
    std::printf("%-46s %-5s %-9s %-8s %10s %8.3f %9.1f  %s\n", row.mode.c_str(), row.transport.c_str(),
                row.algorithm.c_str(), row.location.c_str(), format_size(size).c_str(), row.seconds,
                megabytes_per_second, row.verified ? "yes" : ("NO: " + row.problem).c_str());
    all_verified = all_verified && row.verified;
  }
  std::printf("\n%s\n", all_verified
                            ? "every object verified by the server's checksum and read back byte-exact"
                            : "VERIFICATION FAILED");
  return all_verified ? exit_success : exit_failure;
}

}  // namespace s3up::cli
