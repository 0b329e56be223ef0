// retry_faults_test.cpp: put_object against the strict mock server while it injects faults: error answers
// (500, 503 SlowDown, 400 RequestTimeout, 403), a reset midway through the body, a close before answering,
// garbage and truncated answers, an ignored Expect (expect_test.cpp has the raw client that sends one). Each
// upload either succeeds, with the stored object byte-exact and the attempts counted, or fails with the typed
// error the fault calls for; a fault's count left in pending_faults() proves how many requests it met.
// Expected checksums are computed with Python (make_data's formula, zlib.crc32, base64 of the big-endian
// CRC), not by the code under test.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fault_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;
using mock::Fault;

namespace {

// python3: d = bytes(((((i*2654435761 + 51*40503) & 0xffffffff) >> 13) ^ (((i*2654435761 + 51*40503) &
// 0xffffffff) >> 24)) & 0xff for i in range(300000)); base64.b64encode(struct.pack('>I', zlib.crc32(d)))
constexpr std::size_t body_size = 300000;  // four full 64 KiB chunks and a partial one
constexpr std::uint32_t body_seed = 51;
constexpr const char* body_crc32 = "mPdTBA==";

}  // namespace

TEST_CASE(
    "aws-sdk-cpp#3903: a reset midway through the body is retried with every checksum and signature "
    "from scratch, in every payload mode",
    "[reliability][retry]") {
  const auto data = test::make_data(body_size, body_seed);
  for (const auto& mode : test::payload_modes()) {
    for (bool file : {false, true}) {
      INFO(mode.name << (file ? " from a file" : " from memory"));
      mock::Server server;
      // The first attempt's connection is reset after 100000 body bytes: by then its checksum and (signed)
      // chunk chain have taken in part of the body, which a stale retry would carry into the second.
      Fault reset = test::put_fault(Fault::Kind::reset_after_bytes);
      reset.after_bytes = 100000;
      server.inject_fault(reset);
      Client client(test::fault_config(server));
      test::SourceHolder holder(file ? test::SourceKind::file : test::SourceKind::memory, data);
      const std::string key = std::string("reset/") + mode.name;
      auto result = client.put_object("bucket", key, holder.source(), test::options_for(mode));
      if (!result) FAIL(result.error().to_string());
      CHECK(result->attempts == 2);
      CHECK(server.pending_faults() == 0);
      // The strict server verified the second attempt's seed, chunk and trailer signatures and its checksum
      // against the bytes it decoded; what it stored and what we say we sent are the body's.
      if (mode.location != ChecksumLocation::none) {
        CHECK(result->checksum_sent == body_crc32);
        CHECK(result->checksum_returned == body_crc32);
        test::require_stored(server, "bucket", key, data, body_crc32);
      } else {
        test::require_stored(server, "bucket", key, data);
      }
    }
  }
}

TEST_CASE("500, 503 SlowDown and 400 RequestTimeout are retried and the object stored byte-exact",
          "[reliability][retry]") {
  const auto data = test::make_data(body_size, body_seed);
  struct Answer {
    int status;
    const char* code;
  };
  for (Answer answer :
       {Answer{500, "InternalError"}, Answer{503, "SlowDown"}, Answer{503, "ServiceUnavailable"},
        Answer{502, "BadGateway"}, Answer{504, "GatewayTimeout"}, Answer{400, "RequestTimeout"}}) {
    for (const auto& mode : test::payload_modes()) {
      INFO(answer.status << " " << answer.code << ", " << mode.name);
      mock::Server server;
      // Twice: the third attempt is the one that gets through.
      server.inject_fault(test::error_fault(answer.status, answer.code, 2));
      Client client(test::fault_config(server));
      MemorySource body{std::span<const std::byte>(data)};
      auto result = client.put_object("bucket", "key", body, test::options_for(mode));
      if (!result) FAIL(result.error().to_string());
      CHECK(result->attempts == 3);
      CHECK(server.pending_faults() == 0);
      test::require_stored(server, "bucket", "key", data,
                           mode.location == ChecksumLocation::none ? "" : body_crc32);
    }
  }
}

TEST_CASE("a 403 is not retried", "[reliability][retry]") {
  mock::Server server;
  server.inject_fault(test::error_fault(403, "AccessDenied", 2));
  Client client(test::fault_config(server));
  const auto data = test::make_data(10000, 3);
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  REQUIRE_FALSE(result);
  const Error& error = result.error();
  CHECK(error.kind == Error::Kind::service);
  CHECK(error.http_status == 403);
  CHECK(error.code == "AccessDenied");
  CHECK_FALSE(error.request_id.empty());
  CHECK(error.attempts == 1);
  CHECK(server.pending_faults() == 1);  // the second fault never met a request
  CHECK_FALSE(server.object("bucket", "key"));
}

TEST_CASE("when every attempt fails, the last failure is reported with the attempts made",
          "[reliability][retry]") {
  mock::Server server;
  server.inject_fault(test::error_fault(503, "SlowDown", 5));
  Client client(test::fault_config(server));  // max_attempts 3
  const auto data = test::make_data(10000, 4);
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  REQUIRE_FALSE(result);
  const Error& error = result.error();
  CHECK(error.kind == Error::Kind::service);
  CHECK(error.http_status == 503);
  CHECK(error.code == "SlowDown");
  CHECK(error.message == "Please reduce your request rate.");
  CHECK(error.attempts == 3);
  CHECK(error.to_string().find("after 3 attempts") != std::string::npos);
  CHECK(server.pending_faults() == 2);
  CHECK_FALSE(server.object("bucket", "key"));

  // max_attempts 1 turns retrying off.
  server.clear_faults();
  server.inject_fault(test::error_fault(503, "SlowDown", 2));
  ClientConfig once = test::fault_config(server);
  once.retry.max_attempts = 1;
  Client single(once);
  MemorySource again{std::span<const std::byte>(data)};
  auto refused = single.put_object("bucket", "key", again);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().attempts == 1);
  CHECK(server.pending_faults() == 1);
}

TEST_CASE("a source that cannot rewind is not retried: a body error naming the failure, nothing stored",
          "[reliability][retry]") {
  const auto data = test::make_data(100000, 5);
  for (bool signed_payload : {false, true}) {
    INFO("signed " << signed_payload);
    mock::Server server;
    server.inject_fault(test::error_fault(503, "SlowDown", 2));
    Client client(test::fault_config(server));
    std::size_t position = 0;
    CallbackSource one_way = test::callback_source(data, position, /*rewindable=*/false);
    PutObjectOptions options;
    options.checksum_location = ChecksumLocation::trailer;  // the only checksum a one-way source can carry
    options.signed_payload = signed_payload;
    auto result = client.put_object("bucket", "key", one_way, options);
    REQUIRE_FALSE(result);
    const Error& error = result.error();
    INFO(error.to_string());
    CHECK(error.kind == Error::Kind::body);
    CHECK(error.code == "BodyNotRewindable");
    CHECK(error.message.find("503") != std::string::npos);
    CHECK(error.message.find("SlowDown") != std::string::npos);
    CHECK(error.message.find("cannot rewind") != std::string::npos);
    CHECK(error.http_status == 503);
    CHECK(error.attempts == 1);
    CHECK(server.pending_faults() == 1);
    CHECK_FALSE(server.object("bucket", "key"));
  }
}

TEST_CASE("a connection closed before the answer is retried", "[reliability][retry]") {
  const auto data = test::make_data(body_size, body_seed);
  for (const auto& mode : test::payload_modes()) {
    INFO(mode.name);
    mock::Server server;
    server.inject_fault(test::put_fault(Fault::Kind::close_before_response));
    // A fresh client: on a reused connection curl would resend by itself, inside one attempt.
    Client client(test::fault_config(server));
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body, test::options_for(mode));
    if (!result) FAIL(result.error().to_string());
    CHECK(result->attempts == 2);
    test::require_stored(server, "bucket", "key", data,
                         mode.location == ChecksumLocation::none ? "" : body_crc32);
  }
  // With retrying off, the failure itself: the server closed without a word.
  mock::Server server;
  server.inject_fault(test::put_fault(Fault::Kind::close_before_response));
  ClientConfig once = test::fault_config(server);
  once.retry.max_attempts = 1;
  Client client(once);
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::network);
  CHECK(result.error().code == "CURLE_GOT_NOTHING");
  CHECK(result.error().attempts == 1);
  CHECK_FALSE(server.object("bucket", "key"));
}

TEST_CASE("a garbage 200 is never a success, a truncated 500 is a retried service error",
          "[reliability][retry]") {
  const auto data = test::make_data(50000, 6);
  {
    mock::Server server;
    Fault garbage = test::put_fault(Fault::Kind::malformed_response);
    garbage.status = 200;
    garbage.body = "\x89PNG garbage, not an S3 answer";
    server.inject_fault(garbage);
    Client client(test::fault_config(server));
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    REQUIRE_FALSE(result);
    INFO(result.error().to_string());
    CHECK(result.error().kind == Error::Kind::protocol);
    CHECK(result.error().code == "UnexpectedResponseBody");
    CHECK(result.error().http_status == 200);
    CHECK(result.error().attempts == 1);
    CHECK_FALSE(server.object("bucket", "key"));  // the fault stored nothing: success would have been a lie
  }
  {
    mock::Server server;
    Fault empty = test::put_fault(Fault::Kind::malformed_response);
    empty.status = 200;  // an empty 200 without the ETag of a stored object
    server.inject_fault(empty);
    Client client(test::fault_config(server));
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::protocol);
    CHECK(result.error().code == "MissingETag");
    CHECK_FALSE(server.object("bucket", "key"));
  }
  {
    mock::Server server;
    Fault truncated = test::put_fault(Fault::Kind::malformed_response);
    truncated.status = 500;
    truncated.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InternalError</Code><Mess";
    truncated.count = 2;
    server.inject_fault(truncated);
    Client client(test::fault_config(server));
    MemorySource body{std::span<const std::byte>(data)};
    auto result = client.put_object("bucket", "key", body);
    if (!result) FAIL(result.error().to_string());
    CHECK(result->attempts == 3);
    test::require_stored(server, "bucket", "key", data);

    // Without retries: the status and the code that could be read.
    server.inject_fault(truncated);
    ClientConfig once = test::fault_config(server);
    once.retry.max_attempts = 1;
    Client single(once);
    MemorySource again{std::span<const std::byte>(data)};
    auto failed = single.put_object("bucket", "other", again);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().kind == Error::Kind::service);
    CHECK(failed.error().http_status == 500);
    CHECK(failed.error().code == "InternalError");
    CHECK(failed.error().message.find("cut short") != std::string::npos);
    CHECK_FALSE(server.object("bucket", "other"));
  }
}

TEST_CASE("ignore_expect: our client sends no Expect, so a server that never says 100 Continue is no problem",
          "[reliability][retry]") {
  mock::Server server;
  server.inject_fault(test::put_fault(Fault::Kind::ignore_expect, 2));
  Client client(test::fault_config(server));
  const auto data = test::make_data(body_size, body_seed);
  MemorySource body{std::span<const std::byte>(data)};
  auto result = client.put_object("bucket", "key", body);
  if (!result) FAIL(result.error().to_string());
  CHECK(result->attempts == 1);
  CHECK(server.pending_faults() == 1);
  test::require_stored(server, "bucket", "key", data);
}

TEST_CASE("create_bucket, get_object and delete_object are retried as well", "[reliability][retry]") {
  mock::Server server;
  Client client(test::fault_config(server));
  server.inject_fault(test::error_fault(500, "InternalError", 2));  // PUT: the CreateBucket
  auto created = client.create_bucket("made");
  if (!created) FAIL(created.error().to_string());
  CHECK(server.pending_faults() == 0);

  const auto data = test::make_data(70000, 8);
  MemorySource body{std::span<const std::byte>(data)};
  REQUIRE(client.put_object("made", "key", body));

  Fault get_fault = test::error_fault(503, "SlowDown", 2);
  get_fault.method = "GET";
  server.inject_fault(get_fault);
  std::vector<std::byte> back;
  auto got = test::get_bytes(client, "made", "key", back);
  if (!got) FAIL(got.error().to_string());
  CHECK(back == data);  // the failed attempts handed nothing to the sink
  CHECK(server.pending_faults() == 0);

  Fault delete_fault = test::error_fault(503, "SlowDown", 1);
  delete_fault.method = "DELETE";
  server.inject_fault(delete_fault);
  auto deleted = client.delete_object("made", "key");
  if (!deleted) FAIL(deleted.error().to_string());
  CHECK(server.pending_faults() == 0);
  CHECK_FALSE(server.object("made", "key"));

  // And a 404 is final.
  Fault missing = test::error_fault(404, "NoSuchKey", 2);
  missing.method = "GET";
  server.inject_fault(missing);
  auto absent = test::get_bytes(client, "made", "key", back);
  REQUIRE_FALSE(absent);
  CHECK(absent.error().code == "NoSuchKey");
  CHECK(absent.error().attempts == 1);
  CHECK(server.pending_faults() == 1);
}

TEST_CASE("a rewind that fails ends the call naming both the failure and the rewind",
          "[reliability][retry]") {
  mock::Server server;
  server.inject_fault(test::error_fault(500, "InternalError", 1));
  Client client(test::fault_config(server));
  const auto data = test::make_data(50000, 9);
  std::size_t position = 0;
  CallbackSource source(
      [&](std::span<std::byte> dest) -> std::ptrdiff_t {
        std::size_t n = std::min(dest.size(), data.size() - position);
        std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(position), n, dest.begin());
        position += n;
        return static_cast<std::ptrdiff_t>(n);
      },
      data.size(), [] { return false; });  // claims it can rewind, then cannot
  PutObjectOptions options;
  options.checksum_location = ChecksumLocation::trailer;
  auto result = client.put_object("bucket", "key", source, options);
  REQUIRE_FALSE(result);
  const Error& error = result.error();
  INFO(error.to_string());
  CHECK(error.kind == Error::Kind::body);
  CHECK(error.code == "BodyNotRewindable");
  CHECK(error.message.find("InternalError") != std::string::npos);
  CHECK(error.message.find("rewind callback failed") != std::string::npos);
  CHECK(error.attempts == 1);
  CHECK_FALSE(server.object("bucket", "key"));
}
