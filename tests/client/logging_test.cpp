// logging_test.cpp: what the client logs at trace level, captured from a real upload and from a retried one.
// The canonical request and the retry's cause are there; the secret, the session token, the Authorization
// header and every signature (seed, chunk, trailer) never are: the signatures actually sent are read off the
// wire and searched for in the log.
#include <catch2/catch.hpp>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "scripted_http_server.h"

using namespace s3up;

TEST_CASE("logs carry the request and the canonical request but never a secret or a signature",
          "[client][integration][logging]") {
  mock::Server server;
  std::ostringstream captured;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(captured);
  auto logger = std::make_shared<spdlog::logger>("client-test", sink);
  logger->set_level(spdlog::level::trace);

  ClientConfig config = test::config_for(server);
  config.logger = logger;
  const std::string session_token = "FwoGZXIvYXdzEXAMPLESESSIONTOKEN";
  config.credentials->session_token = session_token;
  Client client(config);
  const auto data = test::make_data(100000, 21);
  for (auto location : {ChecksumLocation::trailer, ChecksumLocation::header, ChecksumLocation::none}) {
    PutObjectOptions options;
    options.checksum_location = location;
    options.signed_payload = true;
    test::SourceHolder holder(test::SourceKind::memory, data);
    auto result = client.put_object("logs", "key", holder.source(), options);
    if (!result) FAIL(result.error().to_string());
  }
  std::vector<std::byte> back;
  REQUIRE(test::get_bytes(client, "logs", "key", back));
  logger->flush();

  const std::string text = captured.str();
  // debug: method, URL, status, request id; trace: the canonical request.
  CHECK(text.find("PUT " + server.url() + "/logs/key") != std::string::npos);
  CHECK(text.find("-> 200") != std::string::npos);
  CHECK(text.find("request_id=") != std::string::npos);
  CHECK(text.find("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER") != std::string::npos);
  CHECK(text.find("canonical request") != std::string::npos);
  CHECK(text.find("host;x-amz-content-sha256;x-amz-date") != std::string::npos);
  CHECK(text.find("\nx-amz-security-token:<redacted>\n") != std::string::npos);
  // Never: the secret, the session token, the Authorization header, a signature.
  CHECK(text.find(mock::default_secret_key) == std::string::npos);
  CHECK(text.find(session_token) == std::string::npos);
  CHECK(text.find("Signature=") == std::string::npos);
  CHECK(text.find("Credential=") == std::string::npos);
  CHECK(text.find("AWS4-HMAC-SHA256 ") == std::string::npos);
  CHECK(text.find("chunk-signature") == std::string::npos);
  CHECK(text.find("x-amz-trailer-signature") == std::string::npos);
}

TEST_CASE("a retried signed upload logs the cause but none of the signatures it sent", "[client][logging]") {
  const std::string reply_503 = test::http_reply(
      "503 Slow Down", "x-amz-request-id: SLOW1\r\n",
      "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>");
  test::ScriptedHttpServer server({{reply_503}, {test::http_reply("200 OK", "ETag: \"e\"\r\n")}});
  std::ostringstream captured;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(captured);
  auto logger = std::make_shared<spdlog::logger>("retry-log-test", sink);
  logger->set_level(spdlog::level::trace);

  const std::string secret = "scripted-secret-key-0123456789";
  const std::string session_token = "IQoJb3JpZ2luX2VjEXAMPLETOKEN";
  ClientConfig config;
  config.endpoint_url = server.url();
  config.region = "us-east-1";
  config.credentials = sigv4::Credentials{"AKIDSCRIPTED", secret, session_token};
  config.logger = logger;
  config.retry = {.max_attempts = 3, .base_delay = std::chrono::milliseconds(1)};
  Client client(config);
  const auto data = test::make_data(150000, 22);  // three 64 KiB chunks: three chunk signatures and a final
  PutObjectOptions options;
  options.checksum_location = ChecksumLocation::trailer;
  options.signed_payload = true;
  test::SourceHolder holder(test::SourceKind::memory, data);
  auto result = client.put_object("logs", "key", holder.source(), options);
  if (!result) FAIL(result.error().to_string());
  CHECK(result->attempts == 2);
  logger->flush();
  const std::string text = captured.str();

  // Every signature that went on the wire, in both attempts: the seed (Authorization), each chunk's and the
  // trailer's.
  std::vector<std::string> signatures;
  const std::regex signature_pattern("(Signature=|chunk-signature=|x-amz-trailer-signature:)([0-9a-f]{64})");
  auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  for (const auto& request : requests) {
    const std::string wire = request.head + request.body;
    for (auto it = std::sregex_iterator(wire.begin(), wire.end(), signature_pattern);
         it != std::sregex_iterator(); ++it) {
      signatures.push_back((*it)[2]);
    }
  }
  // Per attempt: one seed, 3 data chunks + the final chunk, one trailer signature.
  CHECK(signatures.size() == 2 * (1 + 4 + 1));
  for (const auto& signature : signatures) {
    INFO(signature);
    CHECK(text.find(signature) == std::string::npos);
  }
  CHECK(text.find(secret) == std::string::npos);
  CHECK(text.find(session_token) == std::string::npos);
  CHECK(text.find("Signature=") == std::string::npos);
  // The retry is logged with its cause.
  CHECK(text.find("attempt 1 of 3 failed") != std::string::npos);
  CHECK(text.find("SlowDown") != std::string::npos);
  CHECK(text.find("retrying in") != std::string::npos);
}
