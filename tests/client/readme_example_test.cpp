// readme_example_test.cpp: the README's code, kept compiling under the project's warning flags. The AWS
// snippet is compiled only (it needs a real bucket); the mock-server snippet runs and is checked.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "s3up/client.h"
#include "s3up/mock_server.h"

namespace {

// README, "The library". Compiled, not run.
[[maybe_unused]] void readme_library_example() {
  s3up::Client client({.endpoint_url = "https://s3.eu-west-1.amazonaws.com", .region = "eu-west-1"});
  s3up::FileSource body("backup.tar");
  auto put = client.put_object("my-bucket", "backups/backup.tar", body);
  if (!put)
    std::cerr << put.error().to_string() << "\n";
  else
    std::cout << put->etag << " " << put->checksum_sent << "\n";
}

}  // namespace

TEST_CASE("the README's mock-server example uploads and the server holds the bytes", "[client][readme]") {
  const auto directory = std::filesystem::temp_directory_path() / "s3up-readme-example";
  std::filesystem::create_directories(directory);
  const std::string pem = (directory / "mock.pem").string();
  std::ofstream(directory / "backup.tar") << "hello world";

  // README, "The mock server in your own tests".
  s3up::mock::Server server({.tls = true, .cert_out = pem});  // 127.0.0.1, a free port
  s3up::Client client({.endpoint_url = server.url(),
                       .credentials = s3up::sigv4::Credentials{s3up::mock::default_access_key,
                                                               s3up::mock::default_secret_key, ""},
                       .ca_bundle = pem});
  s3up::FileSource body(directory / "backup.tar");
  auto put = client.put_object("my-bucket", "backups/backup.tar", body);
  auto bytes = server.object_data("my-bucket", "backups/backup.tar");  // what the server stored, verified

  REQUIRE(put.ok());
  CHECK(put->checksum_sent == "DUoRhQ==");  // CRC32 of "hello world", reference §5.2
  REQUIRE(bytes.has_value());
  CHECK(std::string(reinterpret_cast<const char*>(bytes->data()), bytes->size()) == "hello world");
  std::filesystem::remove_all(directory);
}
