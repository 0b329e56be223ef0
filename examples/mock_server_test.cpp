// A Catch2 test of the kind a project that uses s3up writes: its upload code runs against
// s3up::mock::Server, a strict local S3 that verifies the signature and the checksum before it stores.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include <s3up/client.h>
#include <s3up/mock_server.h>

TEST_CASE("an object put through the client is stored byte for byte") {
  s3up::mock::Server server;  // HTTP on 127.0.0.1, a port of the kernel's choice, objects in memory
  s3up::ClientConfig config;
  config.endpoint_url = server.url();
  config.region = "us-east-1";
  config.credentials =
      s3up::sigv4::Credentials{s3up::mock::default_access_key, s3up::mock::default_secret_key, ""};
  s3up::Client client(config);

  std::vector<std::byte> data(300'000);
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<std::byte>(i * 7 + i / 1000);
  }
  s3up::MemorySource body(data);
  s3up::PutObjectOptions options;
  options.checksum_algorithm = s3up::ChecksumAlgorithm::sha256;
  auto put = client.put_object("examples", "data.bin", body, options);
  REQUIRE(put.ok());

  auto stored = server.object_data("examples", "data.bin");
  REQUIRE(stored.has_value());
  CHECK(*stored == data);
  REQUIRE(server.object("examples", "data.bin").has_value());
  CHECK(server.object("examples", "data.bin")->checksum->first == "x-amz-checksum-sha256");
}
