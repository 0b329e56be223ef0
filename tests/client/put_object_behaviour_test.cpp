// put_object_behaviour_test.cpp: the client against the mock server beyond the happy matrix: HTTPS with an
// explicit CA bundle, the automatic checksum location, servers that refuse trailers, Content-MD5, network
// failures, bodies that break their promise, bad credentials, virtual-hosted addressing and the other object
// requests.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;

namespace {

mock::Server https_server(bool reject_trailers = false) {
  mock::ServerOptions options;
  options.tls = true;
  options.reject_trailers = reject_trailers;
  return mock::Server(options);
}

Result<PutObjectResult> put(Client& client, const std::string& bucket, const std::string& key,
                            const std::vector<std::byte>& data, PutObjectOptions options = {}) {
  MemorySource source{std::span<const std::byte>(data)};
  return client.put_object(bucket, key, source, options);
}

}  // namespace

TEST_CASE("automatic location: header over HTTP, trailer over HTTPS only when trailers are accepted",
          "[client][integration]") {
  const auto data = test::make_data(70000, 3);
  const std::string expected = compute_checksum(ChecksumAlgorithm::crc32, data).base64();

  mock::Server plain;
  Client http_client(test::config_for(plain));
  auto over_http = put(http_client, "auto", "http", data);
  if (!over_http) FAIL(over_http.error().to_string());
  CHECK(over_http->checksum_location == ChecksumLocation::header);
  CHECK(over_http->checksum_algorithm == ChecksumAlgorithm::crc32);  // when_supported default
  CHECK(over_http->checksum_sent == expected);
  CHECK(over_http->payload_mode == "UNSIGNED-PAYLOAD");

  mock::Server tls = https_server();
  test::TempFile ca(tls.certificate_pem());
  // The machine's AWS_CA_BUNDLE points at the system bundle, which does not hold the server's certificate:
  // only the explicit ca_bundle can make these succeed.
  ClientConfig config = test::config_for(tls, ca.path());
  Client custom(config);
  auto custom_endpoint = put(custom, "auto", "custom", data);
  if (!custom_endpoint) FAIL(custom_endpoint.error().to_string());
  CHECK(custom_endpoint->checksum_location == ChecksumLocation::header);

  config.endpoint_accepts_trailers = true;
  Client accepting(config);
  auto trailer = put(accepting, "auto", "trailer", data);
  if (!trailer) FAIL(trailer.error().to_string());
  CHECK(trailer->checksum_location == ChecksumLocation::trailer);
  CHECK(trailer->payload_mode == "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
  CHECK(trailer->checksum_sent == expected);
  CHECK(trailer->checksum_returned == expected);

  // An empty body always travels with a header checksum.
  auto empty = put(accepting, "auto", "empty", {});
  if (!empty) FAIL(empty.error().to_string());
  CHECK(empty->checksum_location == ChecksumLocation::header);
  CHECK(empty->checksum_sent == "AAAAAA==");  // CRC32 of nothing, reference §5.2

  for (const char* key : {"custom", "trailer"}) {
    auto stored = tls.object_data("auto", key);
    REQUIRE(stored);
    CHECK(*stored == data);
  }

  // when_required without an algorithm sends no checksum at all.
  config.checksum_calculation = ChecksumCalculation::when_required;
  Client required(config);
  auto none = put(required, "auto", "none", data);
  if (!none) FAIL(none.error().to_string());
  CHECK(none->checksum_location == ChecksumLocation::none);
  CHECK_FALSE(none->checksum_algorithm);
  CHECK(none->checksum_sent.empty());
}

TEST_CASE("HTTPS upload in every location with signed payloads, and read back", "[client][integration]") {
  mock::Server tls = https_server();
  test::TempFile ca(tls.certificate_pem());
  Client client(test::config_for(tls, ca.path()));
  const auto data = test::make_data(200000, 11);
  for (auto location : {ChecksumLocation::trailer, ChecksumLocation::header, ChecksumLocation::none}) {
    PutObjectOptions options;
    options.checksum_algorithm = ChecksumAlgorithm::sha1;
    options.checksum_location = location;
    options.signed_payload = true;
    std::string key = "tls/" + std::string(to_string(location));
    auto result = put(client, "secure", key, data, options);
    if (!result) FAIL(result.error().to_string());
    CHECK(result->checksum_location == location);
    std::vector<std::byte> back;
    auto got = test::get_bytes(client, "secure", key, back);
    if (!got) FAIL(got.error().to_string());
    CHECK(back == data);
  }
}

TEST_CASE("curl's smallest and largest upload buffers carry every body mode whole", "[client][integration]") {
  // 16 KiB is below one 64 KiB aws-chunked chunk (a chunk spans read callbacks); 2 MiB holds the whole body
  // and its framing in one. The server verifies each checksum and signature; the bytes are read back.
  mock::Server plain;
  const auto data = test::make_data(1'200'000, 23);
  for (std::size_t buffer_size : {min_upload_buffer_size, max_upload_buffer_size}) {
    ClientConfig config = test::config_for(plain);
    config.upload_buffer_size = buffer_size;
    Client client(config);
    for (auto location : {ChecksumLocation::trailer, ChecksumLocation::header}) {
      for (bool signed_payload : {false, true}) {
        PutObjectOptions options;
        options.checksum_algorithm = ChecksumAlgorithm::crc32c;
        options.checksum_location = location;
        options.signed_payload = signed_payload;
        const std::string key = std::to_string(buffer_size) + "/" + std::string(to_string(location)) +
                                (signed_payload ? "/signed" : "/unsigned");
        auto result = put(client, "buffers", key, data, options);
        if (!result) FAIL(key + ": " + result.error().to_string());
        CHECK(result->checksum_location == location);
        std::vector<std::byte> back;
        auto got = test::get_bytes(client, "buffers", key, back);
        if (!got) FAIL(got.error().to_string());
        CHECK(back == data);
      }
    }
  }
}

TEST_CASE("a server refusing trailers rejects forced trailer mode and accepts automatic",
          "[client][integration]") {
  mock::ServerOptions options;
  options.reject_trailers = true;
  mock::Server server(options);
  Client client(test::config_for(server));
  const auto data = test::make_data(50000, 4);

  PutObjectOptions forced;
  forced.checksum_location = ChecksumLocation::trailer;
  auto refused = put(client, "scaleway", "forced", data, forced);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == Error::Kind::service);
  CHECK(refused.error().http_status == 400);
  CHECK(refused.error().code == "InvalidRequest");
  CHECK_FALSE(refused.error().request_id.empty());
  CHECK_FALSE(server.object("scaleway", "forced"));

  auto automatic = put(client, "scaleway", "auto", data);
  if (!automatic) FAIL(automatic.error().to_string());
  CHECK(automatic->checksum_location == ChecksumLocation::header);
  CHECK(*server.object_data("scaleway", "auto") == data);
}

TEST_CASE("Content-MD5 with and without a checksum", "[client][integration]") {
  mock::Server server;
  Client client(test::config_for(server));
  const auto data = test::make_data(90000, 6);
  for (auto location : {ChecksumLocation::none, ChecksumLocation::header, ChecksumLocation::trailer}) {
    for (bool signed_payload : {false, true}) {
      PutObjectOptions options;
      options.content_md5 = true;
      options.checksum_location = location;
      options.signed_payload = signed_payload;
      options.content_type = "application/x-test";
      std::string key =
          "md5/" + std::string(to_string(location)) + (signed_payload ? "/signed" : "/unsigned");
      INFO(key);
      test::SourceHolder holder(test::SourceKind::stream, data);
      auto result = client.put_object("md5", key, holder.source(), options);
      if (!result) FAIL(result.error().to_string());
      CHECK(result->etag == test::expected_etag(data));
      auto stored = server.object("md5", key);
      REQUIRE(stored);
      CHECK(stored->content_type == "application/x-test");
      CHECK(*server.object_data("md5", key) == data);
    }
  }
}

TEST_CASE("a source that ends early is a body error and nothing is stored", "[client][integration]") {
  mock::Server server;
  Client client(test::config_for(server));
  const auto data = test::make_data(150000, 8);
  for (auto location : {ChecksumLocation::trailer, ChecksumLocation::none, ChecksumLocation::header}) {
    for (bool signed_payload : {false, true}) {
      std::string key =
          "short/" + std::string(to_string(location)) + (signed_payload ? "/signed" : "/unsigned");
      INFO(key);
      // Declares 150000 bytes, yields 100000.
      std::size_t position = 0;
      CallbackSource source = test::callback_source(data, position, true, data.size(), 100000);
      PutObjectOptions options;
      options.checksum_location = location;
      options.signed_payload = signed_payload;
      auto result = client.put_object("short", key, source, options);
      REQUIRE_FALSE(result);
      CHECK(result.error().kind == Error::Kind::body);
      CHECK_FALSE(result.error().message.empty());
      CHECK_FALSE(server.object("short", key));
    }
  }
  // The client is still usable afterwards (a fresh connection replaces the aborted one).
  auto after = put(client, "short", "after", data);
  if (!after) FAIL(after.error().to_string());
  CHECK(*server.object_data("short", "after") == data);
}

TEST_CASE("a source longer than declared is a body error", "[client][integration]") {
  mock::Server server;
  Client client(test::config_for(server));
  const auto data = test::make_data(20000, 9);
  for (auto location : {ChecksumLocation::trailer, ChecksumLocation::header, ChecksumLocation::none}) {
    INFO(to_string(location));
    std::size_t position = 0;
    CallbackSource source = test::callback_source(data, position, true, 10000);  // declares half
    PutObjectOptions options;
    options.checksum_location = location;
    std::string key = "long/" + std::string(to_string(location));
    auto result = client.put_object("long", key, source, options);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::body);
  }
}

TEST_CASE("a non-rewindable source in header mode fails before sending, naming the trailer",
          "[client][integration]") {
  mock::Server server;
  Client client(test::config_for(server));
  const auto data = test::make_data(30000, 10);
  std::size_t position = 0;
  CallbackSource header_source = test::callback_source(data, position, false);
  PutObjectOptions header;
  header.checksum_location = ChecksumLocation::header;
  auto refused = client.put_object("oneway", "header", header_source, header);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == Error::Kind::body);
  CHECK(refused.error().message.find("trailer") != std::string::npos);
  CHECK(position == 0);  // nothing was read
  CHECK(server.stats().requests == 0);

  // Content-MD5 needs the pre-read too.
  PutObjectOptions md5;
  md5.content_md5 = true;
  md5.checksum_location = ChecksumLocation::trailer;
  auto md5_refused = client.put_object("oneway", "md5", header_source, md5);
  REQUIRE_FALSE(md5_refused);
  CHECK(md5_refused.error().kind == Error::Kind::body);

  // The same one-way source goes through in trailer mode.
  PutObjectOptions trailer;
  trailer.checksum_location = ChecksumLocation::trailer;
  auto sent = client.put_object("oneway", "trailer", header_source, trailer);
  if (!sent) FAIL(sent.error().to_string());
  CHECK(*server.object_data("oneway", "trailer") == data);
}

TEST_CASE("a wrong secret is a 403 SignatureDoesNotMatch with a request id", "[client][integration]") {
  mock::Server server;
  ClientConfig config = test::config_for(server);
  config.credentials->secret_access_key = "not-the-secret";
  Client client(config);
  for (auto location : {ChecksumLocation::trailer, ChecksumLocation::header}) {
    PutObjectOptions options;
    options.checksum_location = location;
    auto result = put(client, "auth", "key", test::make_data(100000, 2), options);
    REQUIRE_FALSE(result);
    const Error& error = result.error();
    CHECK(error.kind == Error::Kind::service);
    CHECK(error.http_status == 403);
    CHECK(error.code == "SignatureDoesNotMatch");
    CHECK_FALSE(error.request_id.empty());
    CHECK_FALSE(error.message.empty());
    CHECK(error.to_string().find("SignatureDoesNotMatch") != std::string::npos);
  }
  CHECK(server.object_count() == 0);
}

TEST_CASE("connection refused is a network error", "[client][integration]") {
  std::string url;
  {
    mock::Server server;
    url = server.url();
  }  // stopped: nothing listens on that port any more
  ClientConfig config;
  config.endpoint_url = url;
  config.region = "us-east-1";
  config.credentials = sigv4::Credentials{mock::default_access_key, mock::default_secret_key, ""};
  Client client(config);
  auto result = put(client, "refused", "key", test::make_data(10, 1));
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::network);
  CHECK(result.error().code == "CURLE_COULDNT_CONNECT");
  CHECK(result.error().http_status == 0);
}

TEST_CASE("create_bucket, get_object errors and delete_object", "[client][integration]") {
  mock::ServerOptions options;
  options.auto_create_buckets = false;
  mock::Server server(options);
  Client client(test::config_for(server));
  const auto data = test::make_data(1234, 12);

  auto no_bucket = put(client, "objects", "key", data);
  REQUIRE_FALSE(no_bucket);
  CHECK(no_bucket.error().kind == Error::Kind::service);
  CHECK(no_bucket.error().http_status == 404);
  CHECK(no_bucket.error().code == "NoSuchBucket");

  auto created = client.create_bucket("objects");
  if (!created) FAIL(created.error().to_string());
  CHECK(created.value() == 200);
  auto again = client.create_bucket("objects");  // BucketAlreadyOwnedByYou counts as success
  if (!again) FAIL(again.error().to_string());

  auto stored = put(client, "objects", "key", data);
  if (!stored) FAIL(stored.error().to_string());

  std::vector<std::byte> back;
  auto missing = test::get_bytes(client, "objects", "missing", back);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == Error::Kind::service);
  CHECK(missing.error().http_status == 404);
  CHECK(missing.error().code == "NoSuchKey");
  CHECK_FALSE(missing.error().request_id.empty());
  CHECK(back.empty());  // the error body never reaches the sink

  auto deleted = client.delete_object("objects", "key");
  if (!deleted) FAIL(deleted.error().to_string());
  CHECK(deleted.value() == 204);
  CHECK_FALSE(server.object("objects", "key"));
  auto gone = test::get_bytes(client, "objects", "key", back);
  REQUIRE_FALSE(gone);
  CHECK(gone.error().code == "NoSuchKey");
}

TEST_CASE("a session token is sent and signed as x-amz-security-token", "[client][integration]") {
  mock::Server server;
  ClientConfig config = test::config_for(server);
  config.credentials->session_token = "FwoGZXIvYXdzEXAMPLETOKEN//+==";
  Client client(config);
  const auto data = test::make_data(4000, 13);
  auto result = put(client, "token", "key", data);
  if (!result) FAIL(result.error().to_string());
  CHECK(*server.object_data("token", "key") == data);
}

TEST_CASE("virtual-hosted addressing through <bucket>.localhost", "[client][integration]") {
  mock::Server server;
  ClientConfig config = test::config_for(server);
  // curl resolves every *.localhost name to the loopback address itself (RFC 6761), without DNS.
  config.endpoint_url = "http://localhost:" + std::to_string(server.port());
  config.addressing = Addressing::virtual_hosted;
  Client client(config);
  const auto data = test::make_data(70000, 14);
  for (auto location : {ChecksumLocation::trailer, ChecksumLocation::header}) {
    PutObjectOptions options;
    options.checksum_location = location;
    options.signed_payload = location == ChecksumLocation::trailer;
    std::string key = "dir/" + std::string(to_string(location));
    auto result = put(client, "vhost", key, data, options);
    if (!result) FAIL(result.error().to_string() << " (server: " << server.last_error_code() << ")");
    CHECK(*server.object_data("vhost", key) == data);
    std::vector<std::byte> back;
    auto got = test::get_bytes(client, "vhost", key, back);
    if (!got) FAIL(got.error().to_string());
    CHECK(back == data);
  }
  auto deleted = client.delete_object("vhost", "dir/header");
  if (!deleted) FAIL(deleted.error().to_string());
  CHECK_FALSE(server.object("vhost", "dir/header"));
}
