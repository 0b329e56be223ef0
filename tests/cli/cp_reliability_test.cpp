// cp_reliability_test.cpp: `s3up cp` under faults, as a user meets them: retries with --max-attempts and
// AWS_MAX_ATTEMPTS, --timeout and its exit code 5, Ctrl-C (SIGINT) cancelling an upload with exit code 130,
// and --no-verify-ssl's warning. The server runs in this process (s3up::mock::Server) so that the test can
// inject faults and see what was stored; the command runs as a child process.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "cli_support.h"
#include "s3up/mock_server.h"
#include "subprocess.h"

namespace {

using s3up::mock::Fault;
using s3up::test::run_process;
using s3up::test::Subprocess;
using s3up::test::user_environment;

const std::string s3up_path = S3UP_CLI_PATH;

// A file of `size` random bytes in its own temporary directory.
class TempFile {
 public:
  explicit TempFile(std::size_t size) : path_((dir_ / "object.bin").string()) {
    data_ = s3up::test::write_random_file(path_, size, static_cast<unsigned>(size));
  }
  const std::string& path() const { return path_; }
  const std::string& data() const { return data_; }

 private:
  s3up::test::TempDir dir_;
  std::string path_;
  std::string data_;
};

Fault slow_down(int count) {
  Fault fault;
  fault.kind = Fault::Kind::error_response;
  fault.status = 503;
  fault.code = "SlowDown";
  fault.count = count;
  fault.method = "PUT";
  return fault;
}

std::string stored_text(const s3up::mock::Server& server, const std::string& bucket, const std::string& key) {
  auto stored = server.object_data(bucket, key);
  if (!stored) return "<not stored>";
  return std::string(reinterpret_cast<const char*>(stored->data()), stored->size());
}

}  // namespace

TEST_CASE("s3up cp retries a 503 SlowDown, and --max-attempts and AWS_MAX_ATTEMPTS bound the attempts") {
  TempFile file(100'000);
  s3up::mock::Server server;
  auto cp = [&](const std::string& key, std::vector<std::string> extra,
                const std::map<std::string, std::string>& env) {
    std::vector<std::string> argv = {s3up_path,        "cp",        file.path(), "s3://bucket/" + key,
                                     "--endpoint-url", server.url()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, user_environment(env));
  };

  SECTION("two 503s, three attempts by default: uploaded") {
    server.inject_fault(slow_down(2));
    auto output = cp("default", {}, {});
    INFO(output.out << output.err);
    CHECK(output.exit_code == 0);
    CHECK(server.pending_faults() == 0);
    CHECK(stored_text(server, "bucket", "default") == file.data());
  }
  SECTION("--max-attempts 1: the 503 is final, exit code 4, the code printed") {
    server.inject_fault(slow_down(2));
    auto output = cp("once", {"--max-attempts", "1"}, {});
    INFO(output.out << output.err);
    CHECK(output.exit_code == 4);
    CHECK(output.err.find("SlowDown") != std::string::npos);
    CHECK(server.pending_faults() == 1);
    CHECK_FALSE(server.object("bucket", "once"));
  }
  SECTION("AWS_MAX_ATTEMPTS=1 is honoured, and --max-attempts beats it") {
    server.inject_fault(slow_down(1));
    auto from_env = cp("env", {}, {{"AWS_MAX_ATTEMPTS", "1"}});
    INFO(from_env.out << from_env.err);
    CHECK(from_env.exit_code == 4);
    CHECK(server.pending_faults() == 0);

    server.inject_fault(slow_down(1));
    auto overridden = cp("env", {"--max-attempts", "2"}, {{"AWS_MAX_ATTEMPTS", "1"}});
    INFO(overridden.out << overridden.err);
    CHECK(overridden.exit_code == 0);
    CHECK(stored_text(server, "bucket", "env") == file.data());
  }
  SECTION("bad retry and timeout values are usage errors, exit code 2") {
    CHECK(cp("bad", {"--max-attempts", "0"}, {}).exit_code == 2);
    CHECK(cp("bad", {"--max-attempts", "three"}, {}).exit_code == 2);
    CHECK(cp("bad", {"--timeout", "soon"}, {}).exit_code == 2);
    CHECK(cp("bad", {"--connect-timeout", "-1"}, {}).exit_code == 2);
    CHECK(cp("bad", {"--stall-timeout", "0.5"}, {}).exit_code == 2);
    auto env = cp("bad", {}, {{"AWS_MAX_ATTEMPTS", "lots"}});
    CHECK(env.exit_code == 2);
    CHECK(env.err.find("AWS_MAX_ATTEMPTS") != std::string::npos);
    CHECK(server.stats().requests == 0);
  }
}

TEST_CASE("s3up cp --timeout ends a call whose answer does not come: exit code 5") {
  TempFile file(10'000);
  s3up::mock::Server server;
  Fault late;
  late.kind = Fault::Kind::delay_response;
  late.delay = std::chrono::seconds(30);
  late.method = "PUT";
  server.inject_fault(late);
  auto output = run_process(
      {s3up_path, "cp", file.path(), "s3://bucket/late", "--endpoint-url", server.url(), "--timeout", "1"},
      user_environment());
  INFO(output.out << output.err);
  CHECK(output.exit_code == 5);
  CHECK(output.err.find("request_timeout") != std::string::npos);
}

TEST_CASE("Ctrl-C during s3up cp cancels the upload: exit code 130, nothing stored") {
  TempFile file(24 * 1024 * 1024);  // more than the socket buffers hold: the upload is still running
  s3up::mock::Server server;
  Fault slow;
  slow.kind = Fault::Kind::slow_read;
  slow.bytes_per_second = 1000;
  slow.method = "PUT";
  server.inject_fault(slow);
  Subprocess cp({s3up_path, "cp", file.path(), "s3://bucket/interrupted", "--endpoint-url", server.url()},
                user_environment());
  // Wait until the request is on its way (the fault has met it), so that the signal finds the upload.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (server.pending_faults() != 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(server.pending_faults() == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  cp.signal(SIGINT);
  auto output = cp.wait();
  INFO(output.out << output.err);
  CHECK(output.exit_code == 130);
  // The command said so itself: it was not killed by the signal.
  CHECK(output.err.find("interrupted") != std::string::npos);
  CHECK_FALSE(server.object("bucket", "interrupted"));
}

TEST_CASE("s3up cp --no-verify-ssl uploads over HTTPS without the CA and warns that it did") {
  TempFile file(20'000);
  s3up::mock::Server server({.tls = true});
  auto output = run_process({s3up_path, "cp", file.path(), "s3://bucket/insecure", "--endpoint-url",
                             server.url(), "--no-verify-ssl"},
                            user_environment());
  INFO(output.out << output.err);
  CHECK(output.exit_code == 0);
  CHECK(output.err.find("[warning]") != std::string::npos);
  CHECK(output.err.find("verification is off") != std::string::npos);
  CHECK(stored_text(server, "bucket", "insecure") == file.data());

  // Without the flag (and without the CA) the same upload is refused.
  auto refused =
      run_process({s3up_path, "cp", file.path(), "s3://bucket/refused", "--endpoint-url", server.url()},
                  user_environment());
  CHECK(refused.exit_code == 5);
}
