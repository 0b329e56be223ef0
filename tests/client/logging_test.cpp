// logging_test.cpp: what the client logs at trace level, captured from a real upload. The canonical request
// is there; the secret, the session token, the Authorization header and every signature (seed, chunk,
// trailer) never are.
#include <catch2/catch.hpp>

#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <memory>
#include <sstream>
#include <string>

#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

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
