// expect_test.cpp: the ignore_expect fault from the side of a client that does send Expect: 100-continue
// (the s3up client does not): a raw request that hears no 100 Continue and sends its body anyway, as curl
// does after its wait, is still answered and stored.
#include <catch2/catch.hpp>

#include <string>

#include "raw_http_client.h"
#include "s3up/mock_server.h"
#include "tests/mock_server/s3_request_builder.h"

using namespace s3up;

TEST_CASE("ignore_expect: a raw client waiting for 100 Continue gets through once it sends the body anyway",
          "[reliability][retry]") {
  mock::Server server;
  mock::Fault fault;
  fault.kind = mock::Fault::Kind::ignore_expect;
  fault.method = "PUT";
  server.inject_fault(fault);

  const std::string text = "expect me";
  test::RequestSpec spec;
  spec.path = "/bucket/expect";
  spec.unsigned_headers = {{"Expect", "100-continue"}};
  test::BuiltRequest built = test::build_request(spec, server.port());
  test::RawHttpConnection connection(server.port());
  REQUIRE(connection.send(built.head(text.size())));
  connection.set_receive_timeout(300);
  CHECK_FALSE(connection.read_response(false, /*stop_at_interim=*/true));  // no 100 Continue, no answer
  connection.set_receive_timeout(30000);
  REQUIRE(connection.send(text));
  auto answer = connection.read_response();
  REQUIRE(answer);
  CHECK(answer->status == 200);
  CHECK(server.pending_faults() == 0);
  auto stored = server.object_data("bucket", "expect");
  REQUIRE(stored);
  CHECK(test::as_string(*stored) == text);
}
