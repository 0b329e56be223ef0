// tests/cli/serve_faults_test.cpp: `s3up serve`'s fault-injection flags, as a user passes them: the faults
// hit the first matching requests in the documented order, and flags that cannot apply are usage errors.
#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <string>
#include <vector>

#include "raw_http_client.h"
#include "subprocess.h"
#include "tests/mock_server/s3_request_builder.h"

namespace {

using s3up::test::build_request;
using s3up::test::HttpResponse;
using s3up::test::RawHttpConnection;
using s3up::test::RequestSpec;

const std::string s3up_path = S3UP_CLI_PATH;

// `s3up serve` with the given flags, in a child process.
class FaultyServer {
 public:
  explicit FaultyServer(const std::vector<std::string>& flags)
      : process_(arguments(flags), s3up::test::make_environment({})) {
    const std::string line = process_.read_line(std::chrono::seconds(20));
    const std::string prefix = "listening on http://127.0.0.1:";
    REQUIRE(line.rfind(prefix, 0) == 0);
    port_ = static_cast<std::uint16_t>(std::stoi(line.substr(prefix.size())));
  }
  std::uint16_t port() const { return port_; }
  s3up::test::ProcessOutput stop() {
    process_.signal(SIGTERM);
    return process_.wait();
  }

 private:
  static std::vector<std::string> arguments(const std::vector<std::string>& flags) {
    std::vector<std::string> argv = {s3up_path, "serve"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return argv;
  }
  s3up::test::Subprocess process_;
  std::uint16_t port_ = 0;
};

// One request on a fresh connection. nullopt: no response; `error` then holds the socket error.
std::optional<HttpResponse> send(std::uint16_t port, const std::string& method, const std::string& body,
                                 int* error = nullptr) {
  RequestSpec spec;
  spec.method = method;
  spec.path = "/bucket/key";
  if (method != "PUT") {
    spec.payload_hash = std::string(s3up::sigv4::empty_sha256_hex);
    spec.omit_content_length = true;
  }
  RawHttpConnection connection(port);
  connection.send(build_request(spec, port).head(body.size()) + body);
  auto response = connection.read_response();
  if (error) *error = connection.socket_error();
  return response;
}

}  // namespace

TEST_CASE("s3up serve --fail-next, --reset-after and --fault-method hit the first matching requests") {
  FaultyServer server({"--fail-next", "1:503:SlowDown", "--reset-after", "10:1", "--fault-method", "PUT"});
  // A GET is no PUT: no fault, just the missing bucket.
  auto get = send(server.port(), "GET", "");
  REQUIRE(get);
  CHECK(get->error_code() == "NoSuchBucket");
  // Then the faults, in the documented order: --fail-next before --reset-after.
  auto failed = send(server.port(), "PUT", "hello world");
  REQUIRE(failed);
  CHECK(failed->status == 503);
  CHECK(failed->error_code() == "SlowDown");
  int error = 0;
  CHECK_FALSE(send(server.port(), "PUT", "hello world", &error));
  CHECK(error == ECONNRESET);
  auto put = send(server.port(), "PUT", "hello world");
  REQUIRE(put);
  CHECK(put->status == 200);
  auto got = send(server.port(), "GET", "");
  REQUIRE(got);
  CHECK(got->body == "hello world");
  CHECK(server.stop().exit_code == 0);
}

TEST_CASE("s3up serve --malformed-response keeps the colons of its body, and reports faults left pending") {
  FaultyServer server({"--malformed-response", "1:500:<Error><Code>a:b", "--close-before-response", "3"});
  auto malformed = send(server.port(), "PUT", "x");
  REQUIRE(malformed);
  CHECK(malformed->status == 500);
  CHECK(malformed->body == "<Error><Code>a:b");
  CHECK_FALSE(send(server.port(), "PUT", "x"));
  auto output = server.stop();
  CHECK(output.exit_code == 0);
  CHECK(output.err.find("2 requests were still to be hit by injected faults") != std::string::npos);
}

TEST_CASE("s3up serve: fault flags that cannot apply are usage errors (exit code 2)") {
  const std::vector<std::vector<std::string>> wrong = {
      {"--fail-next", "1:200:SlowDown"},       // not an error status
      {"--fail-next", "0:503:SlowDown"},       // no request to hit
      {"--fail-next", "1:503"},                // no code
      {"--reset-after", "lots"},               // not a size
      {"--slow-read", "0"},                    // would never finish
      {"--delay-response", "-5"},              // negative
      {"--malformed-response", "1:204:body"},  // a 204 cannot carry the body
      {"--ignore-expect", "x"},                // not a count
      {"--fault-method", "PUT"},               // nothing to apply it to
  };
  for (const auto& flags : wrong) {
    std::vector<std::string> argv = {s3up_path, "serve"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    INFO(flags[0] << " " << flags[1]);
    auto output = s3up::test::run_process(argv, s3up::test::make_environment({}));
    CHECK(output.exit_code == 2);
    CHECK(output.out.empty());  // never started listening
  }
  auto help = s3up::test::run_process({s3up_path, "serve", "--help"}, s3up::test::make_environment({}));
  CHECK(help.out.find("--fail-next N:STATUS:CODE") != std::string::npos);
}
