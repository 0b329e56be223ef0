// timeout_cancel_test.cpp: the limits of a call and its cancellation, against the mock server's slow_read
// and delay_response faults and a listener that never completes a connection: stall_timeout, connect_timeout
// and request_timeout each end an attempt as Error{timeout} with their own code (the first two retried, the
// deadline not), and Client::cancel() from another thread ends a transfer or a backoff as Error{cancelled}.
// Time is only bounded from above, generously, never measured.
#include <catch2/catch.hpp>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "fault_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;
using mock::Fault;
using std::chrono::milliseconds;
using std::chrono::seconds;
using SteadyClock = std::chrono::steady_clock;

namespace {

// More than the loopback socket buffers hold, so that a server reading slowly stops the sender for good.
constexpr std::size_t stalling_size = 24 * 1024 * 1024;

Fault slow_read(std::uint64_t bytes_per_second) {
  Fault fault = test::put_fault(Fault::Kind::slow_read);
  fault.bytes_per_second = bytes_per_second;
  return fault;
}

// A TCP listener on 127.0.0.1 whose accept queue is full: Linux then drops further SYNs, so a connect() to
// it neither succeeds nor fails (what a firewall that drops packets looks like).
class BlackHoleListener {
 public:
  BlackHoleListener() {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 0) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      throw std::runtime_error("cannot listen on 127.0.0.1");
    }
    port_ = ntohs(address.sin_port);
    // Fill the queue (backlog 0 admits one) with connections nobody accepts; non-blocking, so that the one
    // that hangs does not hang us.
    for (int i = 0; i < 3; ++i) {
      int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
      ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
      fillers_.push_back(fd);
    }
    std::this_thread::sleep_for(milliseconds(100));  // let the handshakes that can complete, complete
  }
  ~BlackHoleListener() {
    for (int fd : fillers_) ::close(fd);
    ::close(listener_);
  }
  BlackHoleListener(const BlackHoleListener&) = delete;
  BlackHoleListener& operator=(const BlackHoleListener&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::vector<int> fillers_;
};

}  // namespace

TEST_CASE("a server that stops reading is a stall_timeout, retried, and the retry stores the object",
          "[reliability][timeout]") {
  const auto data = test::make_data(stalling_size, 61);
  mock::Server server;
  server.inject_fault(slow_read(1));  // one byte a second: nothing moves once the buffers are full
  ClientConfig config = test::fault_config(server);
  config.stall_timeout = seconds(1);
  Client client(config);
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  if (!result) FAIL(result.error().to_string());
  CHECK(result->attempts == 2);
  test::require_stored(server, "bucket", "key", data);

  // With retrying off, the stall itself.
  server.inject_fault(slow_read(1));
  ClientConfig once = config;
  once.retry.max_attempts = 1;
  Client single(once);
  MemorySource again{std::span<const std::byte>(data)};
  auto stalled = single.put_object("bucket", "stalled", again);
  REQUIRE_FALSE(stalled);
  INFO(stalled.error().to_string());
  CHECK(stalled.error().kind == Error::Kind::timeout);
  CHECK(stalled.error().code == "stall_timeout");
  CHECK(stalled.error().attempts == 1);
  CHECK_FALSE(server.object("bucket", "stalled"));
}

TEST_CASE("an answer that comes too late is a stall (retried) or the call's deadline (not retried)",
          "[reliability][timeout]") {
  const auto data = test::make_data(100000, 62);
  {
    // Waiting for the answer counts as a stall too: nothing moves. (curl averages the speed over up to five
    // seconds, so the stall shows some seconds after the body went out: the delay is well beyond that.)
    mock::Server server;
    Fault late = test::put_fault(Fault::Kind::delay_response);
    late.delay = seconds(20);
    server.inject_fault(late);
    ClientConfig config = test::fault_config(server);
    config.stall_timeout = seconds(1);
    Client client(config);
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    if (!result) FAIL(result.error().to_string());
    CHECK(result->attempts == 2);
    test::require_stored(server, "bucket", "key", data);
  }
  {
    mock::Server server;
    Fault late = test::put_fault(Fault::Kind::delay_response);
    late.delay = seconds(30);
    server.inject_fault(late);
    ClientConfig config = test::fault_config(server);
    config.request_timeout = milliseconds(1000);
    Client client(config);
    const auto start = SteadyClock::now();
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    const auto elapsed = SteadyClock::now() - start;
    REQUIRE_FALSE(result);
    INFO(result.error().to_string());
    CHECK(result.error().kind == Error::Kind::timeout);
    CHECK(result.error().code == "request_timeout");
    CHECK(result.error().attempts == 1);
    CHECK(elapsed < seconds(20));  // long before the 30 s answer
    // The server did store it (delay_response answers late, after storing): the client never claimed so.
  }
  {
    // A delay within the limits is just a slow success.
    mock::Server server;
    Fault late = test::put_fault(Fault::Kind::delay_response);
    late.delay = milliseconds(300);
    server.inject_fault(late);
    ClientConfig config = test::fault_config(server);
    config.request_timeout = seconds(30);
    Client client(config);
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    if (!result) FAIL(result.error().to_string());
    CHECK(result->attempts == 1);
    test::require_stored(server, "bucket", "key", data);
  }
}

TEST_CASE("a connection that never completes is a connect_timeout, retried up to max_attempts",
          "[reliability][timeout]") {
  BlackHoleListener black_hole;
  ClientConfig config;
  config.endpoint_url = black_hole.url();
  config.region = "us-east-1";
  config.credentials = sigv4::Credentials{mock::default_access_key, mock::default_secret_key, ""};
  config.connect_timeout = milliseconds(300);
  config.retry = {.max_attempts = 2, .base_delay = milliseconds(1), .max_backoff = milliseconds(5)};
  Client client(config);
  MemorySource body{std::string_view("never sent")};
  auto result = client.put_object("bucket", "key", body);
  REQUIRE_FALSE(result);
  INFO(result.error().to_string());
  CHECK(result.error().kind == Error::Kind::timeout);
  CHECK(result.error().code == "connect_timeout");
  CHECK(result.error().attempts == 2);
}

TEST_CASE("cancel() from another thread ends a stalled upload, then sticks until reset_cancel()",
          "[reliability][cancel]") {
  const auto data = test::make_data(stalling_size, 63);
  mock::Server server;
  server.inject_fault(slow_read(1000));
  ClientConfig config = test::fault_config(server);
  config.stall_timeout = seconds(0);  // only the cancel can end it
  Client client(config);

  std::thread canceller([&client] {
    std::this_thread::sleep_for(milliseconds(500));
    client.cancel();
  });
  const auto start = SteadyClock::now();
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  const auto elapsed = SteadyClock::now() - start;
  canceller.join();
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::cancelled);
  CHECK(result.error().code == "cancelled");
  CHECK(result.error().attempts == 1);
  // 24 MiB at 1000 bytes a second would take seven hours.
  CHECK(elapsed < seconds(30));
  CHECK_FALSE(server.object("bucket", "key"));

  // Sticky: the next call is cancelled before it sends anything.
  const auto requests = server.stats().requests;
  MemorySource again{std::span<const std::byte>(data)};
  auto refused = client.put_object("bucket", "key", again);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == Error::Kind::cancelled);
  CHECK(refused.error().attempts == 0);
  CHECK(server.stats().requests == requests);

  client.reset_cancel();
  MemorySource last{std::span<const std::byte>(data)};
  auto stored = client.put_object("bucket", "key", last);
  if (!stored) FAIL(stored.error().to_string());
  test::require_stored(server, "bucket", "key", data);
}

TEST_CASE("cancel() wakes a backoff at once, and the deadline cuts one short", "[reliability][cancel]") {
  const auto data = test::make_data(10000, 64);
  {
    mock::Server server;
    server.inject_fault(test::error_fault(503, "SlowDown", 50));
    ClientConfig config = test::fault_config(server);
    // Backoffs of up to a minute: the test ends only if the cancel wakes one.
    config.retry = {.max_attempts = 50, .base_delay = seconds(60), .max_backoff = seconds(60)};
    Client client(config);
    std::thread canceller([&client] {
      std::this_thread::sleep_for(milliseconds(300));
      client.cancel();
    });
    const auto start = SteadyClock::now();
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    const auto elapsed = SteadyClock::now() - start;
    canceller.join();
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::cancelled);
    CHECK(result.error().attempts >= 1);
    CHECK(elapsed < seconds(30));
    CHECK_FALSE(server.object("bucket", "key"));
  }
  {
    mock::Server server;
    server.inject_fault(test::error_fault(503, "SlowDown", 50));
    ClientConfig config = test::fault_config(server);
    config.retry = {.max_attempts = 50, .base_delay = seconds(60), .max_backoff = seconds(60)};
    config.request_timeout = milliseconds(800);
    Client client(config);
    const auto start = SteadyClock::now();
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    const auto elapsed = SteadyClock::now() - start;
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::timeout);
    CHECK(result.error().code == "request_timeout");
    CHECK(elapsed < seconds(30));
  }
}
