// serve_emulate_test.cpp: `s3up serve --emulate PROVIDER` as a user runs it: the process refuses what the
// emulated service refuses, accepts what the matching profile sends, and an unknown name is a usage error.
#include <catch2/catch.hpp>

#include <csignal>
#include <string>
#include <vector>

#include "s3up/client.h"
#include "subprocess.h"
#include "tests/client/integration_support.h"

using namespace s3up;

namespace {

const std::string s3up_path = S3UP_CLI_PATH;

// A client for the `s3up serve` at url (the mock server's default credentials), as provider, without retries.
ClientConfig config_for_url(const std::string& url, Provider provider) {
  ClientConfig config =
      test::config_for_scripted(url, {mock::default_access_key, mock::default_secret_key, ""});
  config.provider = provider;
  config.retry.max_attempts = 1;
  return config;
}

}  // namespace

TEST_CASE("s3up serve --emulate b2 refuses checksum headers and takes what the b2 profile sends") {
  test::Subprocess process({s3up_path, "serve", "--emulate", "B2"}, test::make_environment({}));
  const std::string line = process.read_line(std::chrono::seconds(20));
  const std::string prefix = "listening on ";
  REQUIRE(line.rfind(prefix, 0) == 0);
  const std::string url = line.substr(prefix.size());

  const auto data = test::make_data(5000, 2);
  Client aws(config_for_url(url, Provider::aws));  // over HTTP: a CRC32 header
  MemorySource body{std::span<const std::byte>(data)};
  auto refused = aws.put_object("bucket", "object", body);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().http_status == 400);
  CHECK(refused.error().code == "InvalidArgument");
  CHECK(refused.error().message == "Unsupported header 'x-amz-checksum-crc32' received for this API call.");

  Client b2(config_for_url(url, Provider::b2));
  MemorySource again{std::span<const std::byte>(data)};
  auto stored = b2.put_object("bucket", "object", again);
  if (!stored) FAIL(stored.error().to_string());
  std::vector<std::byte> read;
  auto get = test::get_bytes(b2, "bucket", "object", read);
  if (!get) FAIL(get.error().to_string());
  CHECK(read == data);

  process.signal(SIGTERM);
  auto output = process.wait();
  CHECK(output.exit_code == 0);
  INFO(output.err);
  CHECK(output.err.find("after 3 requests (1 rejected)") != std::string::npos);
}

TEST_CASE("s3up serve --emulate with an unknown service is a usage error") {
  auto output = test::run_process({s3up_path, "serve", "--emulate", "generic"}, test::make_environment({}));
  CHECK(output.exit_code == 2);
  CHECK(output.err.find("--emulate") != std::string::npos);
  CHECK(output.out.find("listening") == std::string::npos);
}
