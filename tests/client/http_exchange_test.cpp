// http_exchange_test.cpp: perform_exchange's last line of defence against an encoder that breaks its own
// declared length (the encoders check their sources; this checks the encoders): the transfer is aborted with
// a body error instead of leaving the server waiting for bytes that never come, or sending bytes past the
// Content-Length.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <string>

#include "client/curl_handle.h"
#include "client/http_exchange.h"
#include "scripted_http_server.h"

using namespace s3up;

namespace {

// Declares `declared` bytes of 'x' but produces `produced` (without throwing, as a buggy encoder would).
class LyingEncoder final : public BodyEncoder {
 public:
  LyingEncoder(std::uint64_t declared, std::uint64_t produced) : declared_(declared), produced_(produced) {}
  std::uint64_t encoded_length() const override { return declared_; }
  std::size_t fill(std::span<std::byte> dest) override {
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(dest.size(), produced_ - position_));
    std::memset(dest.data(), 'x', n);
    position_ += n;
    return n;
  }
  void restart() override { position_ = 0; }

 private:
  std::uint64_t declared_;
  std::uint64_t produced_;
  std::uint64_t position_ = 0;
};

Result<HttpResponse> exchange(const test::ScriptedHttpServer& server, BodyEncoder& encoder) {
  SignedOutgoingRequest request;
  request.method = "PUT";
  request.target.url = server.url() + "/bucket/key";
  request.authorization = "unused";
  TransferSettings settings;
  // Only a safety net: without the check, the short body would wait for the server until this fires.
  settings.request_timeout = std::chrono::milliseconds(60000);
  CurlHandle curl;
  return perform_exchange(curl, settings, request, &encoder, nullptr);
}

}  // namespace

TEST_CASE("an encoder that stops before its declared length aborts the transfer", "[client][exchange]") {
  test::ScriptedHttpServer server({{test::http_reply("200 OK")}});
  LyingEncoder short_encoder(100000, 60000);
  auto result = exchange(server, short_encoder);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::body);
  CHECK(result.error().code == "BodyEndedEarly");
  CHECK(result.error().message.find("60000 bytes of the 100000") != std::string::npos);
  // The server never received a complete request, so it never answered one.
  for (const auto& request : server.requests()) CHECK(request.body.size() < 100000);
}

TEST_CASE("an encoder that runs past its declared length aborts the transfer", "[client][exchange]") {
  test::ScriptedHttpServer server({{test::http_reply("200 OK")}});
  LyingEncoder long_encoder(1000, 5000);
  auto result = exchange(server, long_encoder);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::body);
  CHECK(result.error().code == "BodyLongerThanDeclared");
}

TEST_CASE("an encoder that keeps its declared length goes through", "[client][exchange]") {
  test::ScriptedHttpServer server({{test::http_reply("200 OK", "x-amz-request-id: R1\r\n")}});
  LyingEncoder honest(70000, 70000);
  auto result = exchange(server, honest);
  if (!result) FAIL(result.error().to_string());
  CHECK(result->status == 200);
  CHECK(result->header("x-amz-request-id") == "R1");
  CHECK(result->upload_bytes == 70000);
  CHECK(result->sent_bytes == 70000);
  auto requests = server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].body == std::string(70000, 'x'));
  CHECK(requests[0].head.find("\r\nContent-Length: 70000\r\n") != std::string::npos);
  CHECK(requests[0].head.find("Transfer-Encoding") == std::string::npos);
  CHECK(requests[0].head.find("Expect") == std::string::npos);
}

TEST_CASE("an answer without a readable status line is a protocol error, never a service error",
          "[client][exchange]") {
  // The input fuzz/http_response_fuzz.cpp found: curl finishes without error and with status 0.
  test::ScriptedHttpServer server({{.reply = "HTTP/200 OK\r\nCno", .close = true}});
  LyingEncoder honest(1000, 1000);
  auto result = exchange(server, honest);
  REQUIRE_FALSE(result);
  INFO(result.error().to_string());
  CHECK(result.error().kind == Error::Kind::protocol);
  CHECK(result.error().code == "InvalidStatusLine");
}

TEST_CASE("a reused handle sends each request's own header lines, none left from the one before",
          "[client][exchange]") {
  // The header list's storage is kept in the handle between requests; a shorter second list must not carry
  // the first one's extra lines, and an empty or blank value goes out as a header with no value.
  test::ScriptedHttpServer server({{test::http_reply("200 OK")}, {test::http_reply("200 OK")}});
  CurlHandle curl;
  TransferSettings settings;
  settings.request_timeout = std::chrono::milliseconds(60000);
  SignedOutgoingRequest first;
  first.method = "PUT";
  first.target.url = server.url() + "/bucket/first";
  first.headers = {{"x-amz-meta-one", "1"},
                   {"x-amz-meta-two", "a longer value, to grow the storage"},
                   {"x-amz-meta-empty", ""},
                   {"x-amz-meta-blank", " \t "}};
  first.authorization = "first-authorization";
  LyingEncoder body(10, 10);
  auto first_result = perform_exchange(curl, settings, first, &body, nullptr);
  if (!first_result) FAIL(first_result.error().to_string());
  SignedOutgoingRequest second;
  second.method = "GET";
  second.target.url = server.url() + "/bucket/second";
  second.headers = {{"x-amz-meta-three", "3"}};
  second.authorization = "second-authorization";
  auto second_result = perform_exchange(curl, settings, second, nullptr, nullptr);
  if (!second_result) FAIL(second_result.error().to_string());

  auto requests = server.requests();
  REQUIRE(requests.size() == 2);
  const std::string& head1 = requests[0].head;
  CHECK(head1.find("\r\nx-amz-meta-one: 1\r\n") != std::string::npos);
  CHECK(head1.find("\r\nx-amz-meta-two: a longer value, to grow the storage\r\n") != std::string::npos);
  CHECK(head1.find("\r\nx-amz-meta-empty:\r\n") != std::string::npos);
  // Only whitespace: sent with no value, as SigV4 signs it ("name:"); curl would drop "Name: \t " entirely.
  CHECK(head1.find("\r\nx-amz-meta-blank:\r\n") != std::string::npos);
  CHECK(head1.find("\r\nAuthorization: first-authorization\r\n") != std::string::npos);
  CHECK(head1.find("Accept") == std::string::npos);
  const std::string& head2 = requests[1].head;
  CHECK(head2.starts_with("GET /bucket/second HTTP/1.1\r\n"));
  CHECK(head2.find("\r\nx-amz-meta-three: 3\r\n") != std::string::npos);
  CHECK(head2.find("\r\nAuthorization: second-authorization\r\n") != std::string::npos);
  CHECK(head2.find("x-amz-meta-one") == std::string::npos);
  CHECK(head2.find("x-amz-meta-two") == std::string::npos);
  CHECK(head2.find("x-amz-meta-empty") == std::string::npos);
  CHECK(head2.find("x-amz-meta-blank") == std::string::npos);
  CHECK(head2.find("first-authorization") == std::string::npos);
  CHECK(head2.find("Expect") == std::string::npos);
  CHECK(head2.find("Accept") == std::string::npos);
}
