// raw_body_encoder_test.cpp: RawBodyEncoder passes bytes through unchanged and holds the source to exactly
// its declared size.
#include <catch2/catch.hpp>

#include "body_test_util.h"

using body_test::drain;
using body_test::ScriptedSource;
using s3up::BodyError;
using s3up::RawBodyEncoder;

TEST_CASE("raw encoder: bytes pass through unchanged for any dest size") {
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{8192}, std::size_t{300000}}) {
    const std::string object = body_test::pattern(size, 4);
    for (std::size_t dest : {std::size_t{1}, std::size_t{7}, std::size_t{8193}, std::size_t{1024 * 1024}}) {
      if (dest == 1 && size > 10000) continue;  // byte-at-a-time over 300 kB adds nothing but runtime
      INFO("size " << size << ", dest " << dest);
      ScriptedSource source(object, size, 5000);  // short reads too
      RawBodyEncoder encoder(source);
      CHECK(encoder.encoded_length() == size);
      CHECK(drain(encoder, dest) == object);
    }
  }
}

TEST_CASE("raw encoder: fills dest completely even when the source reads short") {
  const std::string object = body_test::pattern(100000, 4);
  ScriptedSource source(object, object.size(), 999);
  RawBodyEncoder encoder(source);
  std::vector<std::byte> buffer(30000);
  CHECK(encoder.fill(buffer) == 30000);
  CHECK(encoder.fill(buffer) == 30000);
  CHECK(encoder.fill(buffer) == 30000);
  CHECK(encoder.fill(buffer) == 10000);
  CHECK(encoder.fill(buffer) == 0);
}

TEST_CASE("raw encoder: short source is ended_early, long source is longer_than_declared") {
  const std::string object = body_test::pattern(1000, 4);
  ScriptedSource short_source(object, 1001);
  RawBodyEncoder short_encoder(short_source);
  std::string message;
  CHECK(body_test::error_kind([&] { drain(short_encoder, 4096); }, &message) == BodyError::Kind::ended_early);
  CHECK(message == "body ended after 1000 of 1001 bytes");

  // The extra bytes are detected on the call that delivers the last declared byte: curl stops calling the
  // read function once Content-Length bytes are in hand, so a later check would never run.
  ScriptedSource long_source(object, 999);
  RawBodyEncoder long_encoder(long_source);
  std::vector<std::byte> buffer(999);
  CHECK(body_test::error_kind([&] { long_encoder.fill(buffer); }) == BodyError::Kind::longer_than_declared);

  ScriptedSource nonempty(object, 0);
  RawBodyEncoder empty_encoder(nonempty);
  CHECK(body_test::error_kind([&] { drain(empty_encoder, 10); }) == BodyError::Kind::longer_than_declared);
}

TEST_CASE("raw encoder: never reads past the declared length") {
  const std::string object = body_test::pattern(1000, 4);
  ScriptedSource source(object, 1000);
  RawBodyEncoder encoder(source);
  std::vector<std::byte> buffer(4096);
  CHECK(encoder.fill(buffer) == 1000);
  CHECK(encoder.fill(buffer) == 0);
}

TEST_CASE("raw encoder: unknown size and restart") {
  ScriptedSource unknown("abc", std::nullopt);
  CHECK(body_test::error_kind([&] { RawBodyEncoder encoder(unknown); }) == BodyError::Kind::unknown_length);

  const std::string object = body_test::pattern(50000, 9);
  ScriptedSource source(object, object.size());
  RawBodyEncoder encoder(source);
  std::vector<std::byte> buffer(12345);
  REQUIRE(encoder.fill(buffer) == buffer.size());
  encoder.restart();
  CHECK(drain(encoder, 4096) == object);

  ScriptedSource one_pass(object, object.size(), SIZE_MAX, false);
  RawBodyEncoder one_pass_encoder(one_pass);
  CHECK(body_test::error_kind([&] { one_pass_encoder.restart(); }) == BodyError::Kind::not_rewindable);
}
