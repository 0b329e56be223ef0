// clock_skew_test.cpp: a client whose clock is wrong (shifted through the test hook, so nothing sleeps)
// against the mock server's own check of x-amz-date (15 minutes either way, as S3): the first request is
// refused with RequestTimeTooSkewed, the client takes the server's time from the Date header, and the retry
// and every later request are accepted, in every payload mode (the chunk signatures chain from a seed signed
// at the corrected time).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <string>

#include "client/test_hooks.h"
#include "fault_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;
using std::chrono::seconds;

TEST_CASE("a clock an hour off is corrected from the server's Date and the upload retried once",
          "[reliability][clock]") {
  const auto data = test::make_data(200000, 71);
  for (seconds skew : {seconds(3600), seconds(-3600)}) {
    for (const auto& mode : test::payload_modes()) {
      INFO(mode.name << ", client clock off by " << skew.count() << " s");
      mock::Server server;  // check_clock_skew is on by default
      Client client(test::fault_config(server));
      ClientTestHooks::set_clock_offset(client, skew);
      MemorySource body{std::span<const std::byte>(data)};
      auto result = client.put_object("bucket", "key", body, test::options_for(mode));
      if (!result) FAIL(result.error().to_string());
      CHECK(result->attempts == 2);
      CHECK(server.stats().rejected == 1);
      CHECK(server.last_error_code() == "RequestTimeTooSkewed");
      test::require_stored(server, "bucket", "key", data);
      // The correction replaced the wrong offset: what is left is the Date header's one-second resolution
      // and the time between the two readings.
      CHECK(std::abs(ClientTestHooks::clock_offset(client).count()) <= 5);

      MemorySource again{std::span<const std::byte>(data)};
      auto later = client.put_object("bucket", "again", again, test::options_for(mode));
      if (!later) FAIL(later.error().to_string());
      CHECK(later->attempts == 1);
      CHECK(server.stats().rejected == 1);
    }
  }
}

TEST_CASE("a server that keeps saying RequestTimeTooSkewed is believed once", "[reliability][clock]") {
  mock::Server server;
  server.inject_fault(test::error_fault(403, "RequestTimeTooSkewed", 3));
  Client client(test::fault_config(server));
  const auto data = test::make_data(1000, 72);
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::service);
  CHECK(result.error().http_status == 403);
  CHECK(result.error().code == "RequestTimeTooSkewed");
  CHECK(result.error().attempts == 2);
  CHECK(server.pending_faults() == 1);
  CHECK_FALSE(server.object("bucket", "key"));
}
