// config_env_test.cpp: ClientConfig resolution from the AWS_* environment, and configuration errors reported
// before anything is sent. Each test sets the variables it needs and restores the machine's afterwards.
#include <catch2/catch.hpp>

#include <string>

#include "env_guard.h"
#include "s3up/client.h"

using s3up::test::EnvGuard;

namespace {

// A put whose failure must come from the configuration: the endpoint is never contacted.
s3up::Error put_error(s3up::Client& client) {
  s3up::MemorySource body(std::string_view("x"));
  auto result = client.put_object("bucket", "key", body);
  REQUIRE_FALSE(result);
  return result.error();
}

}  // namespace

TEST_CASE("defaults with an empty environment", "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  s3up::Client client;
  const auto& config = client.config();
  CHECK(config.region == "us-east-1");
  CHECK(config.endpoint_url == "https://s3.us-east-1.amazonaws.com");
  CHECK_FALSE(config.credentials);
  REQUIRE(config.checksum_calculation);
  CHECK(*config.checksum_calculation == s3up::ChecksumCalculation::when_supported);
  CHECK(config.ca_bundle.empty());

  // Missing credentials are reported at put time, naming the variables.
  auto error = put_error(client);
  CHECK(error.kind == s3up::Error::Kind::invalid_argument);
  CHECK(error.message.find("AWS_ACCESS_KEY_ID") != std::string::npos);
  CHECK(error.message.find("AWS_SECRET_ACCESS_KEY") != std::string::npos);
}

TEST_CASE("region: AWS_REGION, then AWS_DEFAULT_REGION, and explicit wins", "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  env.set("AWS_DEFAULT_REGION", "eu-west-3");
  CHECK(s3up::Client().config().region == "eu-west-3");
  CHECK(s3up::Client().config().endpoint_url == "https://s3.eu-west-3.amazonaws.com");

  env.set("AWS_REGION", "ap-south-1");
  CHECK(s3up::Client().config().region == "ap-south-1");
  CHECK(s3up::Client().config().endpoint_url == "https://s3.ap-south-1.amazonaws.com");

  s3up::ClientConfig config;
  config.region = "sa-east-1";
  CHECK(s3up::Client(config).config().region == "sa-east-1");
  CHECK(s3up::Client(config).config().endpoint_url == "https://s3.sa-east-1.amazonaws.com");

  env.set("AWS_REGION", "");  // empty counts as unset
  CHECK(s3up::Client().config().region == "eu-west-3");
}

TEST_CASE("endpoint: AWS_ENDPOINT_URL_S3 beats AWS_ENDPOINT_URL and explicit beats both",
          "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  env.set("AWS_ENDPOINT_URL", "http://127.0.0.1:9001");
  CHECK(s3up::Client().config().endpoint_url == "http://127.0.0.1:9001");
  env.set("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:9002");
  CHECK(s3up::Client().config().endpoint_url == "http://127.0.0.1:9002");
  s3up::ClientConfig config;
  config.endpoint_url = "https://minio.example:9000";
  CHECK(s3up::Client(config).config().endpoint_url == "https://minio.example:9000");
}

TEST_CASE("credentials from the environment, and explicit wins", "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  env.set("AWS_ACCESS_KEY_ID", "AKIDENV");
  // Only half of the pair: still no credentials.
  CHECK_FALSE(s3up::Client().config().credentials);

  env.set("AWS_SECRET_ACCESS_KEY", "secret-from-env");
  env.set("AWS_SESSION_TOKEN", "token-from-env");
  auto from_env = s3up::Client().config().credentials;
  REQUIRE(from_env);
  CHECK(from_env->access_key_id == "AKIDENV");
  CHECK(from_env->secret_access_key == "secret-from-env");
  CHECK(from_env->session_token == "token-from-env");

  s3up::ClientConfig config;
  config.credentials = s3up::sigv4::Credentials{"AKIDEXPLICIT", "explicit-secret", ""};
  auto explicit_credentials = s3up::Client(config).config().credentials;
  REQUIRE(explicit_credentials);
  CHECK(explicit_credentials->access_key_id == "AKIDEXPLICIT");
  CHECK(explicit_credentials->session_token.empty());

  config.credentials = s3up::sigv4::Credentials{"AKIDEXPLICIT", "", ""};
  s3up::Client half(config);
  CHECK(put_error(half).kind == s3up::Error::Kind::invalid_argument);
}

TEST_CASE("AWS_REQUEST_CHECKSUM_CALCULATION and AWS_CA_BUNDLE", "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  env.set("AWS_REQUEST_CHECKSUM_CALCULATION", "WHEN_REQUIRED");
  CHECK(*s3up::Client().config().checksum_calculation == s3up::ChecksumCalculation::when_required);
  env.set("AWS_REQUEST_CHECKSUM_CALCULATION", "when_supported");
  CHECK(*s3up::Client().config().checksum_calculation == s3up::ChecksumCalculation::when_supported);

  s3up::ClientConfig config;
  config.checksum_calculation = s3up::ChecksumCalculation::when_required;
  CHECK(*s3up::Client(config).config().checksum_calculation == s3up::ChecksumCalculation::when_required);

  env.set("AWS_CA_BUNDLE", "/etc/env-bundle.pem");
  CHECK(s3up::Client().config().ca_bundle == "/etc/env-bundle.pem");
  config.ca_bundle = "/tmp/explicit.pem";
  CHECK(s3up::Client(config).config().ca_bundle == "/tmp/explicit.pem");

  // A value the SDKs would refuse is an error, not silently the default.
  env.set("AWS_REQUEST_CHECKSUM_CALCULATION", "sometimes");
  env.set("AWS_ACCESS_KEY_ID", "AKID");
  env.set("AWS_SECRET_ACCESS_KEY", "secret");
  s3up::Client bad;
  auto error = put_error(bad);
  CHECK(error.kind == s3up::Error::Kind::invalid_argument);
  CHECK(error.message.find("AWS_REQUEST_CHECKSUM_CALCULATION") != std::string::npos);
}

TEST_CASE("configuration and argument errors are reported before sending", "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  s3up::ClientConfig config;
  config.credentials = s3up::sigv4::Credentials{"AKID", "secret", ""};

  config.endpoint_url = "ftp://127.0.0.1:1";
  s3up::Client bad_endpoint(config);
  auto endpoint_error = put_error(bad_endpoint);
  CHECK(endpoint_error.kind == s3up::Error::Kind::invalid_argument);
  CHECK(endpoint_error.message.find("ftp://127.0.0.1:1") != std::string::npos);

  config.endpoint_url = "http://127.0.0.1:1";
  config.chunk_size = 4096;
  s3up::Client small_chunks(config);
  CHECK(put_error(small_chunks).kind == s3up::Error::Kind::invalid_argument);

  config.chunk_size = s3up::default_chunk_size;
  for (std::size_t outside_curl : {s3up::min_upload_buffer_size - 1, s3up::max_upload_buffer_size + 1}) {
    config.upload_buffer_size = outside_curl;
    s3up::Client odd_buffer(config);
    auto buffer_error = put_error(odd_buffer);
    CHECK(buffer_error.kind == s3up::Error::Kind::invalid_argument);
    CHECK(buffer_error.message.find("upload_buffer_size " + std::to_string(outside_curl)) !=
          std::string::npos);
  }

  // Port 1 is never contacted: every one of these fails validation first.
  config.upload_buffer_size = s3up::default_upload_buffer_size;
  s3up::Client client(config);
  s3up::MemorySource body(std::string_view("x"));
  for (auto [bucket, key] : {std::pair<std::string, std::string>{"bucket", ""},
                             {"bucket", "a\r\nb"},
                             {"bucket", std::string(1025, 'k')},
                             {"Bad_Bucket", "k"},
                             {"ab", "k"}}) {
    auto result = client.put_object(bucket, key, body);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == s3up::Error::Kind::invalid_argument);
  }
  s3up::PutObjectOptions md5_as_checksum;
  md5_as_checksum.checksum_algorithm = s3up::ChecksumAlgorithm::md5;
  auto md5 = client.put_object("bucket", "k", body, md5_as_checksum);
  REQUIRE_FALSE(md5);
  CHECK(md5.error().kind == s3up::Error::Kind::invalid_argument);

  s3up::PutObjectOptions bad_type;
  bad_type.content_type = "text/plain\r\nx-evil: 1";
  auto injected = client.put_object("bucket", "k", body, bad_type);
  REQUIRE_FALSE(injected);
  CHECK(injected.error().kind == s3up::Error::Kind::invalid_argument);

  auto get = client.get_object("bucket", "", [](std::span<const std::byte>) {});
  REQUIRE_FALSE(get);
  CHECK(get.error().kind == s3up::Error::Kind::invalid_argument);
  CHECK(client.delete_object("UPPER", "k").error().kind == s3up::Error::Kind::invalid_argument);
  CHECK(client.create_bucket("a").error().kind == s3up::Error::Kind::invalid_argument);
}

TEST_CASE("retry and timeout settings are checked, and AWS_MAX_ATTEMPTS is left to the command",
          "[client][config]") {
  EnvGuard env;
  s3up::test::clear_aws_environment(env);
  s3up::ClientConfig config;
  config.endpoint_url = "http://127.0.0.1:1";
  config.credentials = s3up::sigv4::Credentials{"AKID", "secret", ""};

  config.retry.max_attempts = 0;
  s3up::Client no_attempts(config);
  auto error = put_error(no_attempts);
  CHECK(error.kind == s3up::Error::Kind::invalid_argument);
  CHECK(error.message.find("max_attempts") != std::string::npos);
  CHECK(error.attempts == 0);

  config.retry.max_attempts = 3;
  config.retry.base_delay = std::chrono::milliseconds(-1);
  s3up::Client negative(config);
  CHECK(put_error(negative).kind == s3up::Error::Kind::invalid_argument);

  // The library keeps its explicit value whatever the environment says (the s3up command reads it).
  env.set("AWS_MAX_ATTEMPTS", "7");
  config.retry.base_delay = std::chrono::milliseconds(100);
  CHECK(s3up::Client(config).config().retry.max_attempts == 3);
}

TEST_CASE("upload_buffer_size_problem takes curl's range, ends included, and names the option", "[client]") {
  // curl's CURLOPT_UPLOAD_BUFFERSIZE accepts 16 KiB to 2 MiB (curl 7.88's documentation).
  CHECK_FALSE(s3up::upload_buffer_size_problem("upload_buffer_size", 16384));
  CHECK_FALSE(s3up::upload_buffer_size_problem("upload_buffer_size", 2097152));
  CHECK(s3up::upload_buffer_size_problem("part_upload_buffer_size", 16383) ==
        "part_upload_buffer_size 16383 is outside curl's range of 16384 to 2097152 bytes");
  CHECK(s3up::upload_buffer_size_problem("upload_buffer_size", 2097153) ==
        "upload_buffer_size 2097153 is outside curl's range of 16384 to 2097152 bytes");
}
