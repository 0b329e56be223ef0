// put_object_matrix_test.cpp: put_object over real sockets against the mock server, for every checksum
// algorithm x location x body source type x signed/unsigned payload, each object read back with get_object
// and from the server's store and compared with the original bytes. The expected checksum is computed
// independently with compute_checksum (the server verifies it on its own too) and the ETag is the MD5 of the
// bytes, as S3 gives it for a single-part upload.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;
using s3up::test::SourceKind;

namespace {

constexpr ChecksumAlgorithm all_algorithms[] = {ChecksumAlgorithm::crc32, ChecksumAlgorithm::crc32c,
                                                ChecksumAlgorithm::crc64nvme, ChecksumAlgorithm::sha1,
                                                ChecksumAlgorithm::sha256};
constexpr SourceKind all_sources[] = {SourceKind::memory, SourceKind::file, SourceKind::stream,
                                      SourceKind::callback};

std::string expected_payload_mode(ChecksumLocation location, bool signed_payload,
                                  const std::vector<std::byte>& data) {
  switch (location) {
    case ChecksumLocation::trailer:
      return std::string(signed_payload ? sigv4::streaming_signed_payload_trailer
                                        : sigv4::streaming_unsigned_payload_trailer);
    case ChecksumLocation::header:
      return signed_payload ? compute_checksum(ChecksumAlgorithm::sha256, data).hex()
                            : std::string(sigv4::unsigned_payload);
    default:
      return std::string(signed_payload ? sigv4::streaming_signed_payload : sigv4::unsigned_payload);
  }
}

// Uploads data as bucket/key and checks everything the result, the store and a read-back say.
void check_upload(mock::Server& server, Client& client, const std::string& bucket, const std::string& key,
                  const std::vector<std::byte>& data, SourceKind kind, ChecksumAlgorithm algorithm,
                  ChecksumLocation location, bool signed_payload) {
  INFO("key " << key << " source " << test::name(kind) << " size " << data.size() << " location "
              << to_string(location) << " algorithm " << algorithm_name(algorithm) << " signed "
              << signed_payload);
  test::SourceHolder holder(kind, data);
  PutObjectOptions options;
  options.checksum_algorithm = algorithm;
  options.checksum_location = location;
  options.signed_payload = signed_payload;
  auto result = client.put_object(bucket, key, holder.source(), options);
  if (!result) FAIL(result.error().to_string() << " (server: " << server.last_error_code() << ")");

  CHECK(result->http_status == 200);
  CHECK(result->bytes == data.size());
  CHECK(result->etag == test::expected_etag(data));
  CHECK_FALSE(result->request_id.empty());
  CHECK(result->checksum_location == location);
  CHECK(result->payload_mode == expected_payload_mode(location, signed_payload, data));
  std::string expected_checksum;
  if (location == ChecksumLocation::none) {
    CHECK_FALSE(result->checksum_algorithm);
    CHECK(result->checksum_sent.empty());
  } else {
    expected_checksum = compute_checksum(algorithm, data).base64();
    CHECK(result->checksum_algorithm == algorithm);
    CHECK(result->checksum_sent == expected_checksum);
    CHECK(result->checksum_returned == expected_checksum);
  }

  auto stored = server.object_data(bucket, key);
  REQUIRE(stored);
  CHECK(*stored == data);
  auto metadata = server.object(bucket, key);
  REQUIRE(metadata);
  CHECK(metadata->size == data.size());
  if (location != ChecksumLocation::none) {
    REQUIRE(metadata->checksum);
    CHECK(metadata->checksum->first == header_name(algorithm));
    CHECK(metadata->checksum->second == expected_checksum);
  }

  std::vector<std::byte> read_back;
  auto got = test::get_bytes(client, bucket, key, read_back);
  if (!got) FAIL(got.error().to_string());
  CHECK(got->http_status == 200);
  CHECK(got->bytes == data.size());
  CHECK(read_back == data);
  CHECK(got->etag == test::expected_etag(data));
  if (location != ChecksumLocation::none) {
    bool found = false;
    for (const auto& [header, value] : got->checksums) {
      if (header == header_name(algorithm)) {
        found = true;
        CHECK(value == expected_checksum);
      }
    }
    CHECK(found);
  }
}

void run_matrix(ChecksumLocation location) {
  mock::Server server;
  Client client(test::config_for(server));
  const std::string bucket = "matrix";
  auto created = client.create_bucket(bucket);
  if (!created) FAIL(created.error().to_string());
  std::uint32_t seed = 1;
  for (ChecksumAlgorithm algorithm : all_algorithms) {
    for (SourceKind kind : all_sources) {
      for (bool signed_payload : {false, true}) {
        for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{100000}}) {
          std::string key = std::string(to_string(location)) + "/" + std::string(algorithm_name(algorithm)) +
                            "/" + test::name(kind) + (signed_payload ? "/signed/" : "/unsigned/") +
                            std::to_string(size);
          check_upload(server, client, bucket, key, test::make_data(size, ++seed), kind, algorithm, location,
                       signed_payload);
        }
      }
    }
  }
}

}  // namespace

TEST_CASE("put_object matrix: checksum in an aws-chunked trailer", "[client][integration]") {
  run_matrix(ChecksumLocation::trailer);
}

TEST_CASE("put_object matrix: checksum in a header after a pre-read", "[client][integration]") {
  run_matrix(ChecksumLocation::header);
}

TEST_CASE("put_object matrix: no checksum", "[client][integration]") {
  run_matrix(ChecksumLocation::none);
}

TEST_CASE("put_object of 5 MiB in each payload mode", "[client][integration]") {
  mock::Server server;
  Client client(test::config_for(server));
  const auto data = test::make_data(5 * 1024 * 1024, 77);
  check_upload(server, client, "big", "trailer-unsigned", data, SourceKind::file, ChecksumAlgorithm::crc32c,
               ChecksumLocation::trailer, false);
  check_upload(server, client, "big", "trailer-signed", data, SourceKind::memory,
               ChecksumAlgorithm::crc64nvme, ChecksumLocation::trailer, true);
  check_upload(server, client, "big", "header-signed", data, SourceKind::stream, ChecksumAlgorithm::sha256,
               ChecksumLocation::header, true);
  check_upload(server, client, "big", "none-signed-chunks", data, SourceKind::callback,
               ChecksumAlgorithm::sha1, ChecksumLocation::none, true);
}

TEST_CASE("keys with spaces, UTF-8, reserved characters and dot segments round-trip",
          "[client][integration]") {
  mock::Server server;
  Client client(test::config_for(server));
  const auto data = test::make_data(1000, 5);
  for (const std::string& key :
       {std::string("dir/my file (1).txt"), std::string("\xC3\xBC\xE6\x97\xA5/x+y=z&q?#"),
        std::string("../up/./here"), std::string("a//b"), std::string("~tilde_-.")}) {
    check_upload(server, client, "keys", key, data, SourceKind::memory, ChecksumAlgorithm::crc32,
                 ChecksumLocation::trailer, true);
  }
}
