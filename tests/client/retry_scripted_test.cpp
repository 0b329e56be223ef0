// retry_scripted_test.cpp: retries, deadlines and answers that are no S3 answer, against a scripted HTTP
// responder that records every request byte: RequestTimeTooSkewed corrected from the Date header (the
// retried and later requests carry the server's time), the deadline that a backoff never sleeps past, and
// oversized, garbled or truncated answers that must never read as success.
#include <catch2/catch.hpp>

#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "client/test_hooks.h"
#include "integration_support.h"
#include "s3up/client.h"
#include "scripted_http_server.h"

using namespace s3up;
using test::http_reply;
using test::ScriptedHttpServer;
using test::ScriptStep;

namespace {

constexpr const char* hello = "hello world";

// Retries with a 1 ms backoff: what is retried matters here, not how long the wait is.
ClientConfig config_for(const ScriptedHttpServer& server) {
  ClientConfig config = test::config_for_scripted(server.url());
  config.retry = {.max_attempts = 3, .base_delay = std::chrono::milliseconds(1)};
  return config;
}

PutObjectOptions header_checksum() {
  PutObjectOptions options;
  options.checksum_algorithm = ChecksumAlgorithm::crc32;
  options.checksum_location = ChecksumLocation::header;
  return options;
}

const std::string ok_reply = http_reply("200 OK", "ETag: \"e\"\r\nx-amz-request-id: OK1\r\n");

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// IMF-fixdate, written with the C library (not the client's parser): "Sun, 06 Nov 1994 08:49:37 GMT".
std::string http_date(std::int64_t unix_seconds) {
  std::time_t time = static_cast<std::time_t>(unix_seconds);
  std::tm parts{};
  gmtime_r(&time, &parts);
  char text[64];
  std::strftime(text, sizeof text, "%a, %d %b %Y %H:%M:%S GMT", &parts);
  return text;
}

// The X-Amz-Date a recorded request was signed with, as Unix seconds.
std::int64_t amz_date_of(const test::RecordedRequest& request) {
  const std::string name = "\r\nx-amz-date: ";
  std::size_t at = request.head.find(name);
  REQUIRE(at != std::string::npos);
  std::string date = request.head.substr(at + name.size(), 16);  // 20251128T235959Z
  std::tm parts{};
  REQUIRE(strptime(date.c_str(), "%Y%m%dT%H%M%SZ", &parts) != nullptr);
  return static_cast<std::int64_t>(timegm(&parts));
}

std::string skewed_reply(std::int64_t server_time) {
  return http_reply(
      "403 Forbidden", "Date: " + http_date(server_time) + "\r\nx-amz-request-id: SKEW1\r\n",
      "<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time "
      "and the current time is too large.</Message></Error>");
}

}  // namespace

TEST_CASE("RequestTimeTooSkewed: the clock is corrected from the Date header and the request retried once",
          "[client][scripted][retry]") {
  // The server's clock is two hours ahead of ours.
  const std::int64_t ahead = 2 * 3600;
  const std::int64_t now = unix_now();
  ScriptedHttpServer server({{skewed_reply(now + ahead)}, {ok_reply}});
  Client client(config_for(server));
  REQUIRE(ClientTestHooks::clock_offset(client) == std::chrono::seconds(0));
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, header_checksum());
  if (!result) FAIL(result.error().to_string());
  CHECK(result->attempts == 2);

  // Bounds of a minute either way cover a slow machine; the offset itself is two hours.
  auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(std::abs(amz_date_of(requests[0]) - now) < 60);
  CHECK(std::abs(amz_date_of(requests[1]) - (now + ahead)) < 60);
  CHECK(std::abs(ClientTestHooks::clock_offset(client).count() - ahead) < 60);
  CHECK(requests[1].body == hello);

  // Later requests sign with the server's time from the start.
  MemorySource again{std::string_view(hello)};
  auto later = client.put_object("bucket", "key", again, header_checksum());
  if (!later) FAIL(later.error().to_string());
  CHECK(later->attempts == 1);
  requests = server.requests();
  REQUIRE(requests.size() == 3);
  CHECK(std::abs(amz_date_of(requests[2]) - (now + ahead)) < 60);
}

TEST_CASE("RequestTimeTooSkewed twice in one call is not retried again", "[client][scripted][retry]") {
  const std::int64_t now = unix_now();
  ScriptedHttpServer server({{skewed_reply(now - 3600)}, {skewed_reply(now + 3600)}, {ok_reply}});
  Client client(config_for(server));
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, header_checksum());
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::service);
  CHECK(result.error().http_status == 403);
  CHECK(result.error().code == "RequestTimeTooSkewed");
  CHECK(result.error().attempts == 2);
  CHECK(server.requests().size() == 2);
}

TEST_CASE("with max_attempts 1 a skewed clock is not retried but corrected for the next call",
          "[client][scripted][retry]") {
  const std::int64_t now = unix_now();
  ScriptedHttpServer server({{skewed_reply(now + 3600)}, {ok_reply}});
  ClientConfig config = config_for(server);
  config.retry.max_attempts = 1;
  Client client(config);
  MemorySource body{std::string_view(hello)};
  auto first = client.put_object("bucket", "key", body, header_checksum());
  REQUIRE_FALSE(first);
  CHECK(first.error().code == "RequestTimeTooSkewed");
  CHECK(first.error().attempts == 1);
  MemorySource again{std::string_view(hello)};
  auto second = client.put_object("bucket", "key", again, header_checksum());
  if (!second) FAIL(second.error().to_string());
  auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(std::abs(amz_date_of(requests[1]) - (now + 3600)) < 60);
}

TEST_CASE("a backoff that would run past request_timeout fails at once with request_timeout",
          "[client][scripted][retry]") {
  ScriptedHttpServer server({{http_reply("503 Slow Down", "",
                                         "<Error><Code>SlowDown</Code><Message>Please reduce your request "
                                         "rate.</Message></Error>")}});
  ClientConfig config = config_for(server);
  // Backoffs drawn from up to an hour; the whole call may take 1.5 s.
  config.retry = {
      .max_attempts = 10, .base_delay = std::chrono::hours(1), .max_backoff = std::chrono::hours(1)};
  config.request_timeout = std::chrono::milliseconds(1500);
  Client client(config);
  const auto start = std::chrono::steady_clock::now();
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, header_checksum());
  const auto elapsed = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::timeout);
  CHECK(result.error().code == "request_timeout");
  CHECK(result.error().attempts >= 1);
  CHECK(static_cast<std::size_t>(result.error().attempts) == server.requests().size());
  // A bound far above 1.5 s and far below the hour a backoff could otherwise sleep.
  CHECK(elapsed < std::chrono::seconds(60));
}

TEST_CASE("answers that are no S3 answer are typed failures, never a success", "[client][scripted]") {
  struct Case {
    const char* name;
    std::string reply;
    Error::Kind kind;
    long status;
    const char* code;
  };
  const std::string big_body(2 * 1024 * 1024, 'x');
  std::string many_headers;
  for (int i = 0; i < 300; ++i)
    many_headers += "x-filler-" + std::to_string(i) + ": " + std::string(1000, 'h') + "\r\n";
  const Case cases[] = {
      {"a 500 with a 2 MiB body", http_reply("500 Internal Server Error", "", big_body),
       Error::Kind::protocol, 0, "ResponseTooLarge"},
      {"300 KiB of response headers", http_reply("200 OK", "ETag: \"e\"\r\n" + many_headers),
       Error::Kind::protocol, 0, "ResponseHeadersTooLarge"},
      {"a 200 with a garbage body", http_reply("200 OK", "ETag: \"e\"\r\n", "\x01\x02 not xml at all"),
       Error::Kind::protocol, 200, "UnexpectedResponseBody"},
      {"a 200 carrying an S3 error document",
       http_reply(
           "200 OK", "ETag: \"e\"\r\n",
           "<?xml version=\"1.0\"?><Error><Code>InternalError</Code><Message>We encountered an internal "
           "error.</Message></Error>"),
       Error::Kind::service, 200, "InternalError"},
      {"a 200 without an ETag", http_reply("200 OK", "x-amz-request-id: NOETAG\r\n"), Error::Kind::protocol,
       200, "MissingETag"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    ScriptedHttpServer server({{c.reply}});
    Client client(config_for(server));
    MemorySource body{std::string_view(hello)};
    auto result = client.put_object("bucket", "key", body, header_checksum());
    REQUIRE_FALSE(result);
    INFO(result.error().to_string());
    CHECK(result.error().kind == c.kind);
    CHECK(result.error().code == c.code);
    if (c.status != 0) CHECK(result.error().http_status == c.status);
    // None of these is transient: one request only.
    CHECK(result.error().attempts == 1);
    CHECK(server.requests().size() == 1);
  }
}

TEST_CASE("a 500 with a truncated XML error keeps what could be read", "[client][scripted]") {
  ScriptedHttpServer server(
      {{http_reply("500 Internal Server Error", "x-amz-request-id: CUT500\r\n",
                   "<?xml version=\"1.0\"?><Error><Code>InternalError</Code><Message>We "
                   "encountered an internal error.</Message><Request")}});
  ClientConfig config = config_for(server);
  config.retry.max_attempts = 2;
  Client client(config);
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, header_checksum());
  REQUIRE_FALSE(result);
  const Error& error = result.error();
  CHECK(error.kind == Error::Kind::service);
  CHECK(error.http_status == 500);
  CHECK(error.code == "InternalError");
  CHECK(error.message.find("We encountered an internal error.") != std::string::npos);
  CHECK(error.message.find("cut short") != std::string::npos);
  CHECK(error.request_id == "CUT500");
  CHECK(error.attempts == 2);  // a 500 is retried, however garbled
  CHECK(server.requests().size() == 2);
}

TEST_CASE("a status line that is no HTTP is a protocol error, not retried", "[client][scripted]") {
  ScriptedHttpServer server({{"SSH-2.0-OpenSSH_9.2\r\n\r\n", true, true}});
  Client client(config_for(server));
  MemorySource body{std::string_view(hello)};
  auto result = client.put_object("bucket", "key", body, header_checksum());
  REQUIRE_FALSE(result);
  INFO(result.error().to_string());
  CHECK(result.error().kind == Error::Kind::protocol);
  CHECK(result.error().attempts == 1);
}

TEST_CASE("a download cut off midway is not retried once the sink has bytes, one cut off before is",
          "[client][scripted][retry]") {
  const std::string ten(10, 'x');
  const std::string full(1000, 'y');
  ScriptedHttpServer server({
      {"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + ten, true, true},  // cut after 10 body bytes
      {"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", true, true},        // cut before the body
      {http_reply("200 OK", "ETag: \"e\"\r\n", full)},
  });
  Client client(config_for(server));
  std::string received;
  auto sink = [&received](std::span<const std::byte> piece) {
    received.append(reinterpret_cast<const char*>(piece.data()), piece.size());
  };
  auto cut = client.get_object("bucket", "key", sink);
  REQUIRE_FALSE(cut);
  INFO(cut.error().to_string());
  CHECK(cut.error().kind == Error::Kind::network);
  CHECK(cut.error().code == "CURLE_PARTIAL_FILE");
  CHECK(cut.error().attempts == 1);
  CHECK(cut.error().message.find("not retried: 10 bytes had already gone to the sink") != std::string::npos);
  CHECK(received == ten);

  received.clear();
  auto retried = client.get_object("bucket", "key", sink);
  if (!retried) FAIL(retried.error().to_string());
  CHECK(received == full);
  CHECK(server.requests().size() == 3);
}
