// fault_support.h: what the reliability tests share: a client for the mock server with a tiny backoff, the
// payload modes, faults for a PUT, and the independent checks of what the server stored.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "tests/client/integration_support.h"

namespace s3up::test {

// The server's credentials and region, a 1 ms backoff (the tests are about what is retried, not how long
// the wait is) and limits that bound a hung test.
inline ClientConfig fault_config(const mock::Server& server) {
  ClientConfig config = config_for(server);
  config.retry = {.max_attempts = 3,
                  .base_delay = std::chrono::milliseconds(1),
                  .max_backoff = std::chrono::milliseconds(5)};
  config.stall_timeout = std::chrono::seconds(30);
  return config;
}

// The payload modes of a PutObject, by their x-amz-content-sha256 value.
struct PayloadMode {
  const char* name;
  ChecksumLocation location;
  bool signed_payload;
};

inline const std::vector<PayloadMode>& payload_modes() {
  static const std::vector<PayloadMode> modes = {
      {"STREAMING-UNSIGNED-PAYLOAD-TRAILER", ChecksumLocation::trailer, false},
      {"UNSIGNED-PAYLOAD with a checksum header", ChecksumLocation::header, false},
      {"hex SHA-256 payload with a checksum header", ChecksumLocation::header, true},
      {"STREAMING-AWS4-HMAC-SHA256-PAYLOAD", ChecksumLocation::none, true},
      {"STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", ChecksumLocation::trailer, true},
  };
  return modes;
}

inline PutObjectOptions options_for(const PayloadMode& mode,
                                    ChecksumAlgorithm algorithm = ChecksumAlgorithm::crc32) {
  PutObjectOptions options;
  options.checksum_location = mode.location;
  options.signed_payload = mode.signed_payload;
  if (mode.location != ChecksumLocation::none) options.checksum_algorithm = algorithm;
  return options;
}

// An S3 error answer for the next `count` PUTs.
inline mock::Fault error_fault(int status, std::string code, int count = 1) {
  mock::Fault fault;
  fault.kind = mock::Fault::Kind::error_response;
  fault.status = status;
  fault.code = std::move(code);
  fault.count = count;
  fault.method = "PUT";
  return fault;
}

inline mock::Fault put_fault(mock::Fault::Kind kind, int count = 1) {
  mock::Fault fault;
  fault.kind = kind;
  fault.count = count;
  fault.method = "PUT";
  return fault;
}

// The server holds exactly data under bucket/key; with a checksum, the one the server stored is the one
// expected (the mock server verified it against the bytes it decoded before storing).
inline void require_stored(const mock::Server& server, const std::string& bucket, const std::string& key,
                           const std::vector<std::byte>& data, const std::string& crc32_base64 = "") {
  auto stored = server.object_data(bucket, key);
  REQUIRE(stored);
  CHECK(stored->size() == data.size());
  CHECK(*stored == data);
  if (!crc32_base64.empty()) {
    auto object = server.object(bucket, key);
    REQUIRE(object);
    REQUIRE(object->checksum);
    CHECK(object->checksum->first == "x-amz-checksum-crc32");
    CHECK(object->checksum->second == crc32_base64);
  }
}

}  // namespace s3up::test
