// body_failure_test.cpp: bodies that fail while they are read, in every payload mode and in the header
// mode's pre-read: a callback that reports an error, one that throws a std::exception, one that throws
// something else. Each is a body error naming the cause, nothing is stored, and the client stays usable.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;

namespace {

enum class Failure { error_return, std_exception, other_exception };

// Declares the whole of data, yields its first `good` bytes, then fails the way asked.
CallbackSource failing_source(const std::vector<std::byte>& data, std::size_t& position, std::size_t good,
                              Failure failure) {
  return CallbackSource(
      [&data, &position, good, failure](std::span<std::byte> dest) -> std::ptrdiff_t {
        if (position >= good) {
          switch (failure) {
            case Failure::error_return:
              return -1;
            case Failure::std_exception:
              throw std::runtime_error("disk on fire at byte " + std::to_string(position));
            case Failure::other_exception:
              throw 42;
          }
        }
        std::size_t n = std::min(dest.size(), good - position);
        std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(position), n, dest.begin());
        position += n;
        return static_cast<std::ptrdiff_t>(n);
      },
      data.size(),
      [&position] {
        position = 0;
        return true;
      });
}

}  // namespace

TEST_CASE("a body that fails mid-read is a body error in every mode, and nothing is stored",
          "[client][integration][body]") {
  mock::Server server;
  ClientConfig config = test::config_for(server);
  config.retry.base_delay = std::chrono::milliseconds(1);
  Client client(config);
  const auto data = test::make_data(200000, 41);
  struct Mode {
    ChecksumLocation location;
    bool signed_payload;
  };
  for (Mode mode : {Mode{ChecksumLocation::trailer, false}, Mode{ChecksumLocation::trailer, true},
                    Mode{ChecksumLocation::none, true}, Mode{ChecksumLocation::none, false},
                    Mode{ChecksumLocation::header, false}, Mode{ChecksumLocation::header, true}}) {
    for (Failure failure : {Failure::error_return, Failure::std_exception, Failure::other_exception}) {
      const std::string key = std::string(to_string(mode.location)) +
                              (mode.signed_payload ? "-signed-" : "-") +
                              std::to_string(static_cast<int>(failure));
      INFO(key);
      std::size_t position = 0;
      CallbackSource source = failing_source(data, position, 120000, failure);
      PutObjectOptions options;
      options.checksum_location = mode.location;
      options.signed_payload = mode.signed_payload;
      auto result = client.put_object("failing", key, source, options);
      REQUIRE_FALSE(result);
      const Error& error = result.error();
      INFO(error.to_string());
      CHECK(error.kind == Error::Kind::body);
      CHECK(error.code == "BodyReadFailed");
      if (failure == Failure::std_exception) CHECK(error.message.find("disk on fire") != std::string::npos);
      // A body error is the caller's to fix: never retried.
      CHECK(error.attempts <= 1);
      CHECK_FALSE(server.object("failing", key));
    }
  }
  // The header mode fails in its pre-read, before anything is sent. A server of its own: the first server
  // may still be reading the head of a request aborted above (its thread is late under load) and count it.
  mock::Server quiet_server;
  Client preread_client(test::config_for(quiet_server));
  std::size_t position = 0;
  CallbackSource source = failing_source(data, position, 1000, Failure::std_exception);
  PutObjectOptions header;
  header.checksum_location = ChecksumLocation::header;
  auto result = preread_client.put_object("failing", "preread", source, header);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::body);
  CHECK(result.error().attempts == 0);
  CHECK(quiet_server.stats().requests == 0);

  // The client is still usable.
  MemorySource good{std::span<const std::byte>(data)};
  auto after = client.put_object("failing", "after", good);
  if (!after) FAIL(after.error().to_string());
  CHECK(*server.object_data("failing", "after") == data);
}
