// tests/cli/cli_test.cpp: the s3up command as a user runs it: `s3up serve` in a child process, `s3up cp` to
// it over HTTP and HTTPS, exit codes for each kind of failure, and `s3up demo` on a small object.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "subprocess.h"

namespace {

using s3up::test::make_environment;
using s3up::test::run_process;
using s3up::test::Subprocess;
using s3up::test::TempDir;
using s3up::test::user_environment;
using s3up::test::write_random_file;

const std::string s3up_path = S3UP_CLI_PATH;

// `s3up serve` in a child process, stopped with SIGTERM at the end.
class ServeProcess {
 public:
  explicit ServeProcess(std::vector<std::string> flags = {}) {
    std::vector<std::string> argv = {s3up_path, "serve"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    process_ = std::make_unique<Subprocess>(argv, make_environment({}));
    const std::string line = process_->read_line(std::chrono::seconds(20));
    const std::string prefix = "listening on ";
    REQUIRE(line.rfind(prefix, 0) == 0);
    url_ = line.substr(prefix.size());
  }
  const std::string& url() const { return url_; }
  s3up::test::ProcessOutput stop() {
    process_->signal(SIGTERM);
    return process_->wait();
  }

 private:
  std::unique_ptr<Subprocess> process_;
  std::string url_;
};

std::string read_back(const std::string& url, const std::string& ca_bundle, const std::string& bucket,
                      const std::string& key) {
  s3up::ClientConfig config;
  config.endpoint_url = url;
  config.region = "us-east-1";
  config.credentials =
      s3up::sigv4::Credentials{s3up::mock::default_access_key, s3up::mock::default_secret_key, ""};
  config.ca_bundle = ca_bundle;
  s3up::Client client(config);
  std::string data;
  auto result = client.get_object(bucket, key, [&](std::span<const std::byte> piece) {
    data.append(reinterpret_cast<const char*>(piece.data()), piece.size());
  });
  REQUIRE(result.ok());
  return data;
}

}  // namespace

TEST_CASE("s3up serve prints its URL first and stops on SIGTERM with exit code 0") {
  ServeProcess server;
  CHECK(server.url().rfind("http://127.0.0.1:", 0) == 0);
  auto output = server.stop();
  CHECK(output.exit_code == 0);
}

TEST_CASE("s3up cp uploads a file over HTTP and the object reads back byte-exact") {
  TempDir dir;
  const std::string data = write_random_file(dir / "object.bin", 300'000, 1);
  ServeProcess server;
  for (const std::string location : {"auto", "trailer", "header"}) {
    for (const std::string algorithm : {"CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256"}) {
      const std::string key = "cli/" + location + "-" + algorithm;
      auto output =
          run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/" + key, "--endpoint-url",
                       server.url(), "--checksum-algorithm", algorithm, "--checksum-location", location},
                      user_environment());
      INFO(location << " " << algorithm << "\nstdout: " << output.out << "\nstderr: " << output.err);
      REQUIRE(output.exit_code == 0);
      CHECK(output.out.find("etag: \"") != std::string::npos);
      CHECK(output.out.find("checksum: " + algorithm + " ") != std::string::npos);
      CHECK(output.out.find(location == "auto" ? "(header;" : "(" + location + ";") != std::string::npos);
      CHECK(read_back(server.url(), "", "bucket", key) == data);
    }
  }
  CHECK(server.stop().exit_code == 0);
}

TEST_CASE("s3up cp over HTTPS trusts the server only through --ca-bundle") {
  TempDir dir;
  const std::string data = write_random_file(dir / "object.bin", 200'000, 2);
  const std::string cert = (dir / "server.pem").string();
  ServeProcess server({"--tls", "--cert-out", cert});
  REQUIRE(server.url().rfind("https://127.0.0.1:", 0) == 0);

  SECTION("with the server's certificate the upload succeeds, in the trailer when the endpoint accepts it") {
    auto output =
        run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/tls-object",
                     "--endpoint-url", server.url(), "--ca-bundle", cert, "--endpoint-accepts-trailers"},
                    user_environment());
    INFO(output.out << output.err);
    REQUIRE(output.exit_code == 0);
    CHECK(output.out.find("checksum: CRC32 ") != std::string::npos);
    CHECK(output.out.find("(trailer;") != std::string::npos);
    CHECK(read_back(server.url(), cert, "bucket", "tls-object") == data);
  }
  SECTION("the explicit --ca-bundle beats AWS_CA_BUNDLE") {
    auto output = run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/tls-object",
                               "--endpoint-url", server.url(), "--ca-bundle", cert},
                              user_environment({{"AWS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt"}}));
    INFO(output.out << output.err);
    CHECK(output.exit_code == 0);
  }
  SECTION("without it the certificate is refused: a network/TLS failure, exit code 5") {
    auto output = run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/tls-object",
                               "--endpoint-url", server.url()},
                              user_environment({{"AWS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt"}}));
    INFO(output.out << output.err);
    CHECK(output.exit_code == 5);
  }
}

TEST_CASE("s3up cp exit codes name the kind of failure") {
  TempDir dir;
  write_random_file(dir / "object.bin", 10'000, 3);
  ServeProcess server;

  SECTION("wrong secret: the server refuses, exit code 4, the S3 code is printed") {
    auto output = run_process(
        {s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/key", "--endpoint-url", server.url()},
        user_environment({{"AWS_SECRET_ACCESS_KEY", "not-the-secret"}}));
    CHECK(output.exit_code == 4);
    CHECK(output.err.find("SignatureDoesNotMatch") != std::string::npos);
    CHECK(output.err.find("not-the-secret") == std::string::npos);
  }
  SECTION("a missing file is a local I/O error, exit code 3") {
    auto output = run_process(
        {s3up_path, "cp", (dir / "missing.bin").string(), "s3://bucket/key", "--endpoint-url", server.url()},
        user_environment());
    CHECK(output.exit_code == 3);
    CHECK(output.err.find("missing.bin") != std::string::npos);
  }
  SECTION("a bad destination or option is a usage error, exit code 2") {
    CHECK(run_process({s3up_path, "cp", (dir / "object.bin").string(), "bucket/key"}, user_environment())
              .exit_code == 2);
    CHECK(run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/key",
                       "--checksum-algorithm", "CRC99", "--endpoint-url", server.url()},
                      user_environment())
              .exit_code == 2);
    CHECK(run_process({s3up_path, "cp", "--no-such-option"}, user_environment()).exit_code == 2);
  }
  SECTION("a refused connection is a network error, exit code 5") {
    auto output = run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/key",
                               "--endpoint-url", "http://127.0.0.1:1"},
                              user_environment());
    CHECK(output.exit_code == 5);
  }
  SECTION("a body over the server's --max-object-size is refused with EntityTooLarge, exit code 4") {
    ServeProcess small({"--max-object-size", "1KiB"});
    auto output = run_process(
        {s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/key", "--endpoint-url", small.url()},
        user_environment());
    CHECK(output.exit_code == 4);
    CHECK(output.err.find("EntityTooLarge") != std::string::npos);
  }
  SECTION("a trailer forced on a server that refuses trailers is refused by the server, exit code 4") {
    ServeProcess strict({"--reject-trailers"});
    auto output = run_process({s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/key",
                               "--endpoint-url", strict.url(), "--checksum-location", "trailer"},
                              user_environment());
    CHECK(output.exit_code == 4);
    CHECK(output.err.find("InvalidRequest") != std::string::npos);
    auto automatic = run_process(
        {s3up_path, "cp", (dir / "object.bin").string(), "s3://bucket/key", "--endpoint-url", strict.url()},
        user_environment());
    CHECK(automatic.exit_code == 0);
  }
}

TEST_CASE("s3up cp --debug logs requests but never the secret or a signature") {
  TempDir dir;
  write_random_file(dir / "object.bin", 20'000, 4);
  ServeProcess server;
  auto output =
      run_process({s3up_path, "--debug", "cp", (dir / "object.bin").string(), "s3://bucket/key",
                   "--endpoint-url", server.url(), "--signed-payload", "--checksum-location", "trailer"},
                  user_environment());
  REQUIRE(output.exit_code == 0);
  CHECK(output.err.find("PUT") != std::string::npos);
  CHECK(output.err.find("[trace]") != std::string::npos);  // the canonical request, logged at trace
  CHECK(output.err.find(s3up::mock::default_secret_key) == std::string::npos);
  CHECK(output.err.find("Signature=") == std::string::npos);
  CHECK(output.err.find("chunk-signature=") == std::string::npos);
}

TEST_CASE("s3up demo verifies every mode on a small object") {
  auto output = run_process({s3up_path, "demo", "--size", "3MiB"}, make_environment({}));
  INFO(output.out << output.err);
  REQUIRE(output.exit_code == 0);
  std::size_t verified_rows = 0;
  for (std::size_t at = output.out.find("  yes\n"); at != std::string::npos;
       at = output.out.find("  yes\n", at + 1))
    ++verified_rows;
  CHECK(verified_rows == 4);
}
