// fault_injection_test.cpp: Server::inject_fault over real sockets: for each fault kind what the client
// sees on the wire (status, S3 code, verbatim bytes, reset or orderly close, no 100 Continue), that nothing
// is stored, that counts, method filters and queue order hold, and that the connection is usable after.
#include <catch2/catch.hpp>

#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "raw_http_client.h"
#include "s3_request_builder.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

using s3up::mock::Fault;
using s3up::mock::Server;
using s3up::mock::ServerOptions;
using namespace s3up::test;
namespace sigv4 = s3up::sigv4;
using Clock = std::chrono::steady_clock;

namespace {

// A PutObject of `body` (UNSIGNED-PAYLOAD): head and body, ready to send.
std::string put_request(const Server& server, const std::string& path, const std::string& body,
                        std::vector<sigv4::Header> unsigned_headers = {}) {
  RequestSpec spec;
  spec.path = path;
  spec.unsigned_headers = std::move(unsigned_headers);
  return build_request(spec, server.port()).head(body.size()) + body;
}

std::string get_request(const Server& server, const std::string& path, const std::string& method = "GET") {
  RequestSpec spec;
  spec.method = method;
  spec.path = path;
  spec.payload_hash = std::string(sigv4::empty_sha256_hex);
  spec.omit_content_length = true;
  return build_request(spec, server.port()).head(0);
}

Fault make_fault(Fault::Kind kind) {
  Fault fault;
  fault.kind = kind;
  return fault;
}

std::string stored(const Server& server, const std::string& key) {
  auto data = server.object_data("bucket", key);
  return data ? as_string(*data) : "<missing>";
}

// A fresh connection stores `body` under `key`: the server is healthy again after the faults.
void require_put_succeeds(const Server& server, const std::string& key, const std::string& body) {
  RawHttpConnection connection(server.port(), server.certificate_pem());
  REQUIRE(connection.send(put_request(server, "/bucket/" + key, body)));
  auto put = connection.read_response();
  REQUIRE(put);
  REQUIRE(put->status == 200);
  REQUIRE(stored(server, key) == body);
}

long long elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
}

}  // namespace

TEST_CASE("error_response: the next `count` requests get the S3 error, store nothing, keep the connection") {
  Server server;
  REQUIRE(send_request(server, put_request(server, "/bucket/key", "old"), "").status == 200);
  Fault fault = make_fault(Fault::Kind::error_response);
  fault.status = 503;
  fault.code = "SlowDown";
  fault.count = 2;
  server.inject_fault(fault);
  CHECK(server.pending_faults() == 2);

  const std::string data = pattern_bytes(20000);
  RawHttpConnection connection(server.port());
  for (std::size_t hit = 1; hit <= 2; ++hit) {
    REQUIRE(connection.send(put_request(server, "/bucket/key", data)));
    auto response = connection.read_response();
    REQUIRE(response);
    CHECK(response->status == 503);
    CHECK(response->error_code() == "SlowDown");
    CHECK(response->element("Message") == "Please reduce your request rate.");
    CHECK(response->element("RequestId") == response->header("x-amz-request-id"));
    CHECK_FALSE(response->header("Connection"));  // the body was read: keep-alive goes on
    CHECK(server.pending_faults() == 2 - hit);
  }
  CHECK(stored(server, "key") == "old");  // never replaced

  // The same connection carries the next request, which no fault hits.
  REQUIRE(connection.send(put_request(server, "/bucket/key", data)));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(stored(server, "key") == data);
  auto stats = server.stats();
  CHECK(stats.requests == 4);
  CHECK(stats.rejected == 2);
  CHECK(stats.body_bytes == 3 + 3 * 20000);  // the hit requests' bodies were read in full
  CHECK(server.last_error_code() == "SlowDown");
}

TEST_CASE("error_response: any status and code, no body to HEAD, no new object created") {
  Server server;
  Fault fault = make_fault(Fault::Kind::error_response);
  fault.status = 500;
  fault.code = "InternalError";
  server.inject_fault(fault);
  auto put = send_request(server, put_request(server, "/bucket/new", "hello"), "");
  CHECK(put.status == 500);
  CHECK(put.error_code() == "InternalError");
  CHECK(put.element("Message") == "We encountered an internal error. Please try again.");
  CHECK(server.object_count() == 0);
  CHECK_FALSE(server.object("bucket", "new"));

  fault.status = 403;
  fault.code = "RequestTimeTooSkewed";
  server.inject_fault(fault);
  auto skewed = send_request(server, put_request(server, "/bucket/new", "hello"), "");
  CHECK(skewed.status == 403);
  CHECK(skewed.error_code() == "RequestTimeTooSkewed");
  CHECK(skewed.element("MaxAllowedSkewMilliseconds") == "900000");
  CHECK(skewed.element("ServerTime").size() == 16);  // 20240101T000000Z
  CHECK(skewed.header("Date"));

  fault.status = 503;
  fault.code = "SlowDown";
  server.inject_fault(fault);
  auto head = send_request(server, get_request(server, "/bucket/new", "HEAD"), "", true);
  CHECK(head.status == 503);
  CHECK(head.body.empty());
  CHECK(server.object_count() == 0);
  CHECK(server.pending_faults() == 0);
}

TEST_CASE("a fault hits only its method, and each request takes the first queued fault it matches") {
  Server server;
  REQUIRE(send_request(server, put_request(server, "/bucket/key", "hello world"), "").status == 200);
  Fault get_only = make_fault(Fault::Kind::error_response);
  get_only.status = 500;
  get_only.code = "InternalError";
  get_only.method = "GET";
  Fault any = make_fault(Fault::Kind::error_response);  // 503 SlowDown
  server.inject_fault(get_only);
  server.inject_fault(any);
  CHECK(server.pending_faults() == 2);

  RawHttpConnection connection(server.port());
  auto exchange = [&](const std::string& request) {
    REQUIRE(connection.send(request));
    auto response = connection.read_response();
    REQUIRE(response);
    return *response;
  };
  // The GET-only fault is first in the queue, but a PUT passes it by and takes the next one.
  CHECK(exchange(put_request(server, "/bucket/key", "other")).error_code() == "SlowDown");
  CHECK(server.pending_faults() == 1);
  CHECK(exchange(put_request(server, "/bucket/key", "second")).status == 200);
  CHECK(server.pending_faults() == 1);
  CHECK(exchange(get_request(server, "/bucket/key")).error_code() == "InternalError");
  CHECK(server.pending_faults() == 0);
  auto get = exchange(get_request(server, "/bucket/key"));
  CHECK(get.status == 200);
  CHECK(get.body == "second");
}

TEST_CASE("faults that match the same requests hit them in the order queued") {
  Server server;
  for (const char* code : {"InternalError", "SlowDown", "ServiceUnavailable"}) {
    Fault fault = make_fault(Fault::Kind::error_response);
    fault.code = code;
    fault.status = std::string(code) == "InternalError" ? 500 : 503;
    server.inject_fault(fault);
  }
  RawHttpConnection connection(server.port());
  std::vector<std::string> codes;
  for (int i = 0; i < 4; ++i) {
    REQUIRE(connection.send(put_request(server, "/bucket/key", "data")));
    auto response = connection.read_response();
    REQUIRE(response);
    codes.push_back(response->status == 200 ? "OK" : response->error_code());
  }
  CHECK(codes == std::vector<std::string>{"InternalError", "SlowDown", "ServiceUnavailable", "OK"});
}

TEST_CASE("reset_after_bytes: a TCP reset after exactly that many body bytes, nothing stored") {
  Server server;
  REQUIRE(send_request(server, put_request(server, "/bucket/key", "old"), "").status == 200);
  Fault fault = make_fault(Fault::Kind::reset_after_bytes);

  SECTION("mid-body") {
    fault.after_bytes = 1000;
    server.inject_fault(fault);
    RawHttpConnection connection(server.port());
    connection.send(put_request(server, "/bucket/key", pattern_bytes(200000)));  // may fail: the reset
    CHECK_FALSE(connection.read_response());
    CHECK(connection.socket_error() == ECONNRESET);
    CHECK(server.stats().body_bytes == 3 + 1000);
  }
  SECTION("a body shorter than after_bytes is read whole, then reset") {
    fault.after_bytes = 1000;
    server.inject_fault(fault);
    RawHttpConnection connection(server.port());
    REQUIRE(connection.send(put_request(server, "/bucket/key", pattern_bytes(500))));
    CHECK_FALSE(connection.read_response());
    CHECK(connection.socket_error() == ECONNRESET);
    CHECK(server.stats().body_bytes == 3 + 500);
  }
  SECTION("0: right after the head, without a 100 Continue") {
    server.inject_fault(fault);
    RawHttpConnection connection(server.port());
    RequestSpec spec;
    spec.path = "/bucket/key";
    spec.unsigned_headers = {{"Expect", "100-continue"}};
    REQUIRE(connection.send(build_request(spec, server.port()).head(5)));
    CHECK_FALSE(connection.read_response(false, true));  // not even an interim response
    CHECK(connection.socket_error() == ECONNRESET);
    CHECK(server.stats().body_bytes == 3);
  }
  SECTION("over TLS the reset is the same TCP RST") {
    ServerOptions options;
    options.tls = true;
    Server tls_server(options);
    fault.after_bytes = 1000;
    tls_server.inject_fault(fault);
    RawHttpConnection connection(tls_server.port(), tls_server.certificate_pem());
    connection.send(put_request(tls_server, "/bucket/key", pattern_bytes(200000)));
    CHECK_FALSE(connection.read_response());
    CHECK(connection.socket_error() == ECONNRESET);
    CHECK(tls_server.stats().body_bytes == 1000);
    CHECK(tls_server.object_count() == 0);
    require_put_succeeds(tls_server, "after", "fine");
  }
  CHECK(server.pending_faults() == 0);
  CHECK(stored(server, "key") == "old");
  CHECK(server.object_count() == 1);
  require_put_succeeds(server, "after", pattern_bytes(30000));
}

TEST_CASE("close_before_response: the whole request is read, then an orderly close and no answer") {
  Server server;
  REQUIRE(send_request(server, put_request(server, "/bucket/key", "old"), "").status == 200);
  Fault fault = make_fault(Fault::Kind::close_before_response);
  fault.method = "PUT";
  server.inject_fault(fault);
  RawHttpConnection connection(server.port());
  REQUIRE(connection.send(put_request(server, "/bucket/key", pattern_bytes(20000))));
  CHECK_FALSE(connection.read_response());
  CHECK(connection.socket_error() == 0);  // end of stream (FIN), not a reset
  CHECK(server.stats().body_bytes == 3 + 20000);
  CHECK(stored(server, "key") == "old");
  CHECK(server.pending_faults() == 0);
  require_put_succeeds(server, "key", "new");
}

TEST_CASE("malformed_response: the status and the body verbatim, nothing stored, keep-alive goes on") {
  Server server;
  REQUIRE(send_request(server, put_request(server, "/bucket/key", "old"), "").status == 200);
  Fault cut = make_fault(Fault::Kind::malformed_response);
  cut.status = 200;
  cut.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>Internal";
  Fault garbage = make_fault(Fault::Kind::malformed_response);
  garbage.status = 500;
  garbage.body = std::string("\0\xff\r\nnot xml at all", 18);
  server.inject_fault(cut);
  server.inject_fault(garbage);

  RawHttpConnection connection(server.port());
  REQUIRE(connection.send(put_request(server, "/bucket/key", pattern_bytes(5000))));
  auto first = connection.read_response();
  REQUIRE(first);
  CHECK(first->status == 200);
  CHECK(first->body == cut.body);
  CHECK_FALSE(first->header("ETag"));
  CHECK(first->header("Content-Length") == std::to_string(cut.body.size()));
  REQUIRE(connection.send(put_request(server, "/bucket/key", pattern_bytes(5000))));
  auto second = connection.read_response();
  REQUIRE(second);
  CHECK(second->status == 500);
  CHECK(second->body == garbage.body);
  CHECK(stored(server, "key") == "old");
  CHECK(server.pending_faults() == 0);

  REQUIRE(connection.send(put_request(server, "/bucket/key", "new")));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(put->header("ETag") == "\"22af645d1859cb5ca6da0c484f1f37ea\"");  // md5("new"), Python hashlib
  CHECK(stored(server, "key") == "new");
}

TEST_CASE("slow_read: the body is read no faster than bytes_per_second, then stored as usual") {
  Server server;
  Fault fault = make_fault(Fault::Kind::slow_read);
  fault.bytes_per_second = 40000;
  server.inject_fault(fault);
  const std::string data = pattern_bytes(20000);  // half a second at that rate
  RawHttpConnection connection(server.port());
  auto start = Clock::now();
  REQUIRE(connection.send(put_request(server, "/bucket/slow", data)));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(elapsed_ms(start) >= 250);  // a safe lower bound, half the configured pace
  CHECK(stored(server, "slow") == data);
  CHECK(server.pending_faults() == 0);
}

TEST_CASE("delay_response: the request is handled, stored, then answered after the delay") {
  Server server;
  Fault fault = make_fault(Fault::Kind::delay_response);
  fault.delay = std::chrono::milliseconds(400);
  server.inject_fault(fault);
  const std::string data = pattern_bytes(10000);
  RawHttpConnection connection(server.port());

  SECTION("a patient client gets the answer") {
    auto start = Clock::now();
    REQUIRE(connection.send(put_request(server, "/bucket/late", data)));
    auto put = connection.read_response();
    REQUIRE(put);
    CHECK(put->status == 200);
    CHECK(elapsed_ms(start) >= 200);
    CHECK(stored(server, "late") == data);
    // The connection is still good, and the next answer is not delayed again (one request was hit).
    REQUIRE(connection.send(get_request(server, "/bucket/late")));
    auto get = connection.read_response();
    REQUIRE(get);
    CHECK(get->body == data);
  }
  SECTION("a client that gives up sees a timeout, yet the upload is stored") {
    connection.set_receive_timeout(100);
    REQUIRE(connection.send(put_request(server, "/bucket/late", data)));
    CHECK_FALSE(connection.read_response());
    CHECK(connection.socket_error() == EAGAIN);
    auto deadline = Clock::now() + std::chrono::seconds(10);
    while (!server.object("bucket", "late") && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(stored(server, "late") == data);
  }
  CHECK(server.pending_faults() == 0);
}

TEST_CASE("delay_response: stop() does not wait for a pending delay") {
  Server server;
  Fault fault = make_fault(Fault::Kind::delay_response);
  fault.delay = std::chrono::hours(1);  // were stop() to wait it out, ctest's timeout would fail the test
  server.inject_fault(fault);
  RawHttpConnection connection(server.port());
  REQUIRE(connection.send(put_request(server, "/bucket/key", "data")));
  auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!server.object("bucket", "key") && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(server.object("bucket", "key"));
  server.stop();
  CHECK_FALSE(connection.read_response());
}

TEST_CASE("ignore_expect: no 100 Continue, and the body sent anyway is read and stored") {
  Server server;
  server.inject_fault(make_fault(Fault::Kind::ignore_expect));
  RawHttpConnection connection(server.port());
  RequestSpec spec;
  spec.path = "/bucket/expect";
  spec.unsigned_headers = {{"Expect", "100-continue"}};
  REQUIRE(connection.send(build_request(spec, server.port()).head(11)));
  // A client waits a while for the 100 (curl: 1 s), then sends the body anyway.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  REQUIRE(connection.send("hello world"));
  auto first = connection.read_response(false, true);  // the first response, interim or not
  REQUIRE(first);
  CHECK(first->status == 200);
  CHECK(stored(server, "expect") == "hello world");
  CHECK(server.pending_faults() == 0);

  // The next request on the connection, not hit, gets its 100 Continue again.
  REQUIRE(connection.send(build_request(spec, server.port()).head(5)));
  auto interim = connection.read_response(false, true);
  REQUIRE(interim);
  CHECK(interim->status == 100);
  REQUIRE(connection.send("again"));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(stored(server, "expect") == "again");
}

TEST_CASE("a fault injected while a request is in flight hits the next request, not that one") {
  Server server;
  RawHttpConnection connection(server.port());
  RequestSpec spec;
  spec.path = "/bucket/key";
  spec.unsigned_headers = {{"Expect", "100-continue"}};
  REQUIRE(connection.send(build_request(spec, server.port()).head(11)));
  auto interim = connection.read_response(false, true);  // the head has been parsed
  REQUIRE(interim);
  REQUIRE(interim->status == 100);
  server.inject_fault(make_fault(Fault::Kind::error_response));
  REQUIRE(connection.send("hello world"));
  auto put = connection.read_response();
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(server.pending_faults() == 1);
  REQUIRE(connection.send(put_request(server, "/bucket/key", "next")));
  auto next = connection.read_response();
  REQUIRE(next);
  CHECK(next->error_code() == "SlowDown");
  CHECK(stored(server, "key") == "hello world");
}

TEST_CASE("faults injected from another thread each hit exactly one request or stay pending") {
  Server server;
  constexpr int requests = 60;
  constexpr int faults = 25;
  int failed = 0;
  int succeeded = 0;
  std::thread client([&] {
    RawHttpConnection connection(server.port());
    for (int i = 0; i < requests; ++i) {
      if (!connection.send(put_request(server, "/bucket/key", "data"))) return;
      auto response = connection.read_response();
      if (!response) return;
      (response->status == 200 ? succeeded : failed) += 1;
    }
  });
  for (int i = 0; i < faults; ++i) {
    server.inject_fault(make_fault(Fault::Kind::error_response));
    std::this_thread::yield();
  }
  client.join();
  CHECK(succeeded + failed == requests);
  CHECK(static_cast<std::size_t>(failed) + server.pending_faults() == faults);
}

TEST_CASE("pending_faults, clear_faults, and faults the server refuses to inject") {
  Server server;
  Fault errors = make_fault(Fault::Kind::error_response);
  errors.count = 3;
  Fault closes = make_fault(Fault::Kind::close_before_response);
  closes.count = 2;
  server.inject_fault(errors);
  server.inject_fault(closes);
  CHECK(server.pending_faults() == 5);
  server.clear_faults();
  CHECK(server.pending_faults() == 0);
  require_put_succeeds(server, "key", "fine");

  Fault none = make_fault(Fault::Kind::error_response);
  none.count = 0;
  CHECK_THROWS_AS(server.inject_fault(none), std::invalid_argument);
  Fault ok_error = make_fault(Fault::Kind::error_response);
  ok_error.status = 200;
  CHECK_THROWS_AS(server.inject_fault(ok_error), std::invalid_argument);
  Fault no_code = make_fault(Fault::Kind::error_response);
  no_code.code.clear();
  CHECK_THROWS_AS(server.inject_fault(no_code), std::invalid_argument);
  Fault stalled = make_fault(Fault::Kind::slow_read);  // bytes_per_second 0
  CHECK_THROWS_AS(server.inject_fault(stalled), std::invalid_argument);
  Fault back_in_time = make_fault(Fault::Kind::delay_response);
  back_in_time.delay = std::chrono::milliseconds(-1);
  CHECK_THROWS_AS(server.inject_fault(back_in_time), std::invalid_argument);
  Fault no_content = make_fault(Fault::Kind::malformed_response);
  no_content.status = 204;
  CHECK_THROWS_AS(server.inject_fault(no_content), std::invalid_argument);
  CHECK(server.pending_faults() == 0);
}
