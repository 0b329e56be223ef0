// provider_emulation_test.cpp: each provider profile against the mock server emulating that service, over
// real sockets and TLS: the profile's PutObject and multipart upload are accepted and read back byte-exact
// with the strongest check the service takes, the plain AWS defaults are refused there with the service's
// own error, and explicit choices the service refuses fail before any request is sent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "tests/client/integration_support.h"

using namespace s3up;

namespace {

// Values computed in advance with Python (zlib, hashlib, base64) over test::make_data(70000, 7), written
// out by the same formula: x = (i * 2654435761 + 7 * 40503) mod 2^32, byte = ((x >> 13) ^ (x >> 24)) & 0xff.
constexpr std::size_t object_size = 70000;
constexpr std::uint32_t object_seed = 7;
constexpr const char* object_crc32 = "OEsw6Q==";  // base64 of the big-endian CRC32 of all 70000 bytes
constexpr const char* object_md5_hex = "5b9cfce12929204b1409bd6a5b105bfc";
constexpr std::size_t first_part = 40000;        // the multipart split: 40000 + 30000 bytes
constexpr const char* part1_crc32 = "EhS2Gw==";  // CRC32 of bytes [0, 40000)
constexpr const char* part2_crc32 = "442YQA==";  // CRC32 of bytes [40000, 70000)

mock::ServerOptions emulating(mock::Emulation emulation, bool tls) {
  mock::ServerOptions options;
  options.emulate = emulation;
  options.tls = tls;
  options.min_part_size = 1;  // multipart on a small object
  return options;
}

// A mock server emulating a service, with its certificate in a file for the client to trust.
class Emulated {
 public:
  explicit Emulated(mock::Emulation emulation, bool tls = true)
      : server_(emulating(emulation, tls)), ca_(server_.certificate_pem()) {}

  ClientConfig config(Provider provider) const {
    ClientConfig config = test::config_for(server_, server_.options().tls ? ca_.path() : "");
    config.provider = provider;
    config.retry.max_attempts = 1;  // a refusal is final anyway; a retry would blur the request counts
    return config;
  }
  mock::Server& server() { return server_; }

 private:
  mock::Server server_;
  test::TempFile ca_;
};

struct Expected {
  Provider provider;
  mock::Emulation emulation;
  ChecksumLocation location;  // where the default checksum travels; none: Content-MD5 instead
};

// ../shared/s3-compatibility.md, row by row: trailers where the service takes them (over HTTPS), header CRC32
// where it takes no trailer, Content-MD5 where it takes no x-amz-checksum header at all.
const std::vector<Expected>& expectations() {
  static const std::vector<Expected> rows = {
      {Provider::aws, mock::Emulation::aws, ChecksumLocation::trailer},
      {Provider::minio, mock::Emulation::minio, ChecksumLocation::trailer},
      {Provider::ceph, mock::Emulation::ceph, ChecksumLocation::header},
      {Provider::wasabi, mock::Emulation::wasabi, ChecksumLocation::header},
      {Provider::scaleway, mock::Emulation::scaleway, ChecksumLocation::header},
      {Provider::r2, mock::Emulation::r2, ChecksumLocation::header},
      {Provider::b2, mock::Emulation::b2, ChecksumLocation::none},
      {Provider::gcs, mock::Emulation::gcs, ChecksumLocation::none},
  };
  return rows;
}

void check_refused_before_sending(const Error& error, mock::Server& server, const std::string& service) {
  INFO(error.to_string());
  CHECK(error.kind == Error::Kind::invalid_argument);
  CHECK(error.code == "UnsupportedByProvider");
  CHECK(error.message.find(service) != std::string::npos);
  CHECK(error.attempts == 0);
  CHECK(server.stats().requests == 0);
  CHECK(server.object_count() == 0);
}

void check_service_refusal(const Error& error, long status, const std::string& code) {
  INFO(error.to_string());
  CHECK(error.kind == Error::Kind::service);
  CHECK(error.http_status == status);
  CHECK(error.code == code);
}

}  // namespace

TEST_CASE("each provider profile's PutObject is accepted by its emulation and reads back byte-exact") {
  const auto data = test::make_data(object_size, object_seed);
  for (const Expected& row : expectations()) {
    INFO("provider " << to_string(row.provider) << ", emulation " << mock::to_string(row.emulation));
    Emulated emulated(row.emulation);
    Client client(emulated.config(row.provider));
    MemorySource body{std::span<const std::byte>(data)};
    auto put = client.put_object("bucket", "object", body);
    if (!put) FAIL(put.error().to_string());
    CHECK(put->checksum_location == row.location);
    if (row.location == ChecksumLocation::none) {
      CHECK_FALSE(put->checksum_algorithm);
      CHECK(put->checksum_sent.empty());
    } else {
      CHECK(put->checksum_algorithm == ChecksumAlgorithm::crc32);
      CHECK(put->checksum_sent == object_crc32);
      CHECK(put->payload_mode == (row.location == ChecksumLocation::trailer
                                      ? "STREAMING-UNSIGNED-PAYLOAD-TRAILER"
                                      : "UNSIGNED-PAYLOAD"));
    }
    CHECK(put->etag == "\"" + std::string(object_md5_hex) + "\"");
    CHECK(emulated.server().object_data("bucket", "object") == data);

    // And the GET the profile makes is accepted too (B2 refuses x-amz-checksum-mode).
    std::vector<std::byte> read;
    auto get = test::get_bytes(client, "bucket", "object", read);
    if (!get) FAIL(get.error().to_string());
    CHECK(read == data);
  }
}

TEST_CASE("each provider profile's multipart upload is accepted by its emulation and reads back byte-exact") {
  const auto data = test::make_data(object_size, object_seed);
  const std::span<const std::byte> all(data);
  for (const Expected& row : expectations()) {
    INFO("provider " << to_string(row.provider) << ", emulation " << mock::to_string(row.emulation));
    Emulated emulated(row.emulation);
    Client client(emulated.config(row.provider));
    auto upload = client.create_multipart_upload("bucket", "multi");
    if (!upload) FAIL(upload.error().to_string());
    const bool checksummed = row.location != ChecksumLocation::none;
    CHECK(upload->checksum_algorithm ==
          (checksummed ? std::optional(ChecksumAlgorithm::crc32) : std::nullopt));

    std::vector<CompletedPart> parts;
    const std::span<const std::byte> pieces[] = {all.first(first_part), all.subspan(first_part)};
    const char* crcs[] = {part1_crc32, part2_crc32};
    for (int number = 1; number <= 2; ++number) {
      MemorySource body{pieces[number - 1]};
      auto part = client.upload_part(upload.value(), number, body);
      if (!part) FAIL(part.error().to_string());
      CHECK(part->checksum == (checksummed ? crcs[number - 1] : ""));
      parts.push_back(CompletedPart{number, part->etag, part->checksum, part->bytes});
    }
    auto complete = client.complete_multipart_upload(upload.value(), parts);
    if (!complete) FAIL(complete.error().to_string());
    if (checksummed) CHECK(complete->checksum == object_crc32);  // FULL_OBJECT: the CRC32 of all the bytes
    CHECK(emulated.server().object_data("bucket", "multi") == data);
    auto stored = emulated.server().object("bucket", "multi");
    REQUIRE(stored);
    CHECK(stored->parts == 2);
  }
}

TEST_CASE("B2 and GCS profiles send Content-MD5: bytes that change after the pre-read are refused") {
  const auto data = test::make_data(object_size, object_seed);
  auto changed = data;
  changed[12345] ^= std::byte{1};
  for (Provider provider : {Provider::b2, Provider::gcs}) {
    INFO(to_string(provider));
    Emulated emulated(provider == Provider::b2 ? mock::Emulation::b2 : mock::Emulation::gcs);
    Client client(emulated.config(provider));
    // The pre-read sees data; the rewound source then sends one flipped bit. Only a Content-MD5 computed
    // in the pre-read can catch it (no x-amz-checksum header is sent).
    std::size_t position = 0;
    bool rewound = false;
    CallbackSource body(
        [&](std::span<std::byte> dest) -> std::ptrdiff_t {
          const auto& bytes = rewound ? changed : data;
          std::size_t n = std::min(dest.size(), bytes.size() - position);
          std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(position), n, dest.begin());
          position += n;
          return static_cast<std::ptrdiff_t>(n);
        },
        data.size(),
        [&] {
          position = 0;
          rewound = true;
          return true;
        });
    auto put = client.put_object("bucket", "object", body);
    REQUIRE_FALSE(put.ok());
    check_service_refusal(put.error(), 400, "BadDigest");
    CHECK(put.error().message.find("Content-MD5") != std::string::npos);
    CHECK(emulated.server().object_count() == 0);
  }
}

TEST_CASE("the plain AWS defaults are refused by the emulations of services that refuse them") {
  const auto data = test::make_data(object_size, object_seed);
  struct Refusal {
    mock::Emulation emulation;
    long status;
    const char* code;
  };
  // Provider::aws over HTTPS: an unsigned CRC32 trailer, as the AWS SDKs send since January 2025.
  const Refusal refusals[] = {
      {mock::Emulation::ceph, 400, "XAmzContentSHA256Mismatch"},  // releases before trailer support
      {mock::Emulation::wasabi, 501, "NotImplemented"},           // no aws-chunked body (reported stall)
      {mock::Emulation::scaleway, 400, "InvalidRequest"},         // x-amz-trailer not supported
      {mock::Emulation::b2, 400, "InvalidArgument"},              // Unsupported header 'x-amz-trailer'
      {mock::Emulation::gcs, 501, "NotImplemented"},
  };
  for (const Refusal& refusal : refusals) {
    INFO(mock::to_string(refusal.emulation));
    Emulated emulated(refusal.emulation);
    Client client(emulated.config(Provider::aws));
    MemorySource body{std::span<const std::byte>(data)};
    auto put = client.put_object("bucket", "object", body);
    REQUIRE_FALSE(put.ok());
    check_service_refusal(put.error(), refusal.status, refusal.code);
    CHECK(emulated.server().last_error_code() == refusal.code);
    CHECK(emulated.server().object_count() == 0);
  }

  SECTION("B2 refuses every x-amz-checksum header, the GET's x-amz-checksum-mode included") {
    Emulated b2(mock::Emulation::b2);
    Client aws_http(b2.config(Provider::aws));
    ClientConfig header_config = b2.config(Provider::aws);
    header_config.checksum_location = ChecksumLocation::header;
    Client aws_header(header_config);
    MemorySource body{std::span<const std::byte>(data)};
    auto put = aws_header.put_object("bucket", "object", body);
    REQUIRE_FALSE(put.ok());
    check_service_refusal(put.error(), 400, "InvalidArgument");
    CHECK(put.error().message == "Unsupported header 'x-amz-checksum-crc32' received for this API call.");

    Client b2_client(b2.config(Provider::b2));
    MemorySource again{std::span<const std::byte>(data)};
    REQUIRE(b2_client.put_object("bucket", "object", again).ok());
    std::vector<std::byte> read;
    auto get = test::get_bytes(aws_http, "bucket", "object", read);
    REQUIRE_FALSE(get.ok());
    check_service_refusal(get.error(), 400, "InvalidArgument");
    CHECK(get.error().message.find("x-amz-checksum-mode") != std::string::npos);

    auto upload = aws_http.create_multipart_upload("bucket", "multi");
    REQUIRE_FALSE(upload.ok());
    check_service_refusal(upload.error(), 400, "InvalidArgument");
    CHECK(upload.error().message.find("x-amz-checksum-algorithm") != std::string::npos);
  }

  SECTION("R2 refuses CRC64NVME (the AWS CLI's choice) and signed streaming") {
    Emulated r2(mock::Emulation::r2);
    ClientConfig crc64_config = r2.config(Provider::aws);
    crc64_config.checksum_algorithm = ChecksumAlgorithm::crc64nvme;
    Client crc64(crc64_config);
    MemorySource body{std::span<const std::byte>(data)};
    auto put = crc64.put_object("bucket", "object", body);
    REQUIRE_FALSE(put.ok());
    check_service_refusal(put.error(), 501, "NotImplemented");

    Client aws(r2.config(Provider::aws));
    MemorySource signed_body{std::span<const std::byte>(data)};
    auto signed_put = aws.put_object("bucket", "object", signed_body, {.signed_payload = true});
    REQUIRE_FALSE(signed_put.ok());
    check_service_refusal(signed_put.error(), 501, "NotImplemented");
    CHECK(signed_put.error().message == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER not implemented");
    CHECK(r2.server().object_count() == 0);

    // The r2 profile signs the same upload as a hex SHA-256 payload with a CRC32 header: accepted.
    Client r2_client(r2.config(Provider::r2));
    MemorySource r2_body{std::span<const std::byte>(data)};
    auto r2_put = r2_client.put_object("bucket", "object", r2_body, {.signed_payload = true});
    if (!r2_put) FAIL(r2_put.error().to_string());
    CHECK(r2_put->checksum_location == ChecksumLocation::header);
    CHECK(r2_put->payload_mode.size() == 64);  // the hex SHA-256 of the payload
    CHECK(r2.server().object_data("bucket", "object") == data);
  }
}

TEST_CASE("MinIO refuses aws-chunked chunks over 16 MiB, and the minio profile refuses to send them") {
  constexpr std::size_t mib = 1024 * 1024;
  const auto data = test::make_data(16 * mib + 16 * 1024, 11);
  Emulated minio(mock::Emulation::minio);
  ClientConfig big = minio.config(Provider::aws);
  big.chunk_size = 16 * mib + 8 * 1024;
  Client aws(big);
  MemorySource body{std::span<const std::byte>(data)};
  auto put = aws.put_object("bucket", "object", body);
  REQUIRE_FALSE(put.ok());
  check_service_refusal(put.error(), 400, "BadRequest");
  CHECK(put.error().message == "chunk too big: choose chunk size <= 16MiB");
  CHECK(minio.server().object_count() == 0);

  // The same choice under the minio profile fails before sending.
  Emulated quiet(mock::Emulation::minio);
  ClientConfig refused = quiet.config(Provider::minio);
  refused.chunk_size = big.chunk_size;
  Client minio_big(refused);
  MemorySource again{std::span<const std::byte>(data)};
  auto not_sent = minio_big.put_object("bucket", "object", again);
  REQUIRE_FALSE(not_sent.ok());
  check_refused_before_sending(not_sent.error(), quiet.server(), "MinIO");

  // With its default chunks the object goes through as a trailer upload.
  Client minio_client(minio.config(Provider::minio));
  MemorySource third{std::span<const std::byte>(data)};
  auto ok = minio_client.put_object("bucket", "object", third);
  if (!ok) FAIL(ok.error().to_string());
  CHECK(ok->checksum_location == ChecksumLocation::trailer);
  CHECK(minio.server().object_data("bucket", "object") == data);
}

TEST_CASE("explicit choices the provider refuses fail before any request is sent") {
  const auto data = test::make_data(1000, 5);
  auto put_with = [&](mock::Emulation emulation, Provider provider, const std::string& service, auto adjust,
                      PutObjectOptions options = {}) {
    Emulated emulated(emulation, false);
    ClientConfig config = emulated.config(provider);
    adjust(config);
    Client client(config);
    MemorySource body{std::span<const std::byte>(data)};
    auto put = client.put_object("bucket", "object", body, options);
    REQUIRE_FALSE(put.ok());
    check_refused_before_sending(put.error(), emulated.server(), service);
  };
  auto nothing = [](ClientConfig&) {};

  SECTION("--checksum-algorithm CRC64NVME with r2") {
    put_with(mock::Emulation::r2, Provider::r2, "Cloudflare R2",
             [](ClientConfig& c) { c.checksum_algorithm = ChecksumAlgorithm::crc64nvme; });
    put_with(mock::Emulation::r2, Provider::r2, "Cloudflare R2", nothing,
             {.checksum_algorithm = ChecksumAlgorithm::crc64nvme});
  }
  SECTION("any x-amz-checksum with b2") {
    put_with(mock::Emulation::b2, Provider::b2, "Backblaze B2",
             [](ClientConfig& c) { c.checksum_algorithm = ChecksumAlgorithm::sha256; });
    put_with(mock::Emulation::b2, Provider::b2, "Backblaze B2", nothing,
             {.checksum_location = ChecksumLocation::header});
  }
  SECTION("a trailer with scaleway, a trailer with endpoint_accepts_trailers, CRC32C with wasabi") {
    put_with(mock::Emulation::scaleway, Provider::scaleway, "Scaleway", nothing,
             {.checksum_location = ChecksumLocation::trailer});
    put_with(mock::Emulation::scaleway, Provider::scaleway, "Scaleway",
             [](ClientConfig& c) { c.endpoint_accepts_trailers = true; });
    put_with(mock::Emulation::wasabi, Provider::wasabi, "Wasabi", nothing,
             {.checksum_algorithm = ChecksumAlgorithm::crc32c});
  }
  SECTION("a signed trailer with r2") {
    put_with(mock::Emulation::r2, Provider::r2, "Cloudflare R2", nothing,
             {.checksum_location = ChecksumLocation::trailer, .signed_payload = true});
  }
  SECTION("CreateMultipartUpload: CRC64NVME with r2, any algorithm with b2") {
    Emulated r2(mock::Emulation::r2, false);
    Client r2_client(r2.config(Provider::r2));
    auto r2_upload = r2_client.create_multipart_upload("bucket", "multi",
                                                       {.checksum_algorithm = ChecksumAlgorithm::crc64nvme});
    REQUIRE_FALSE(r2_upload.ok());
    check_refused_before_sending(r2_upload.error(), r2.server(), "Cloudflare R2");
    CHECK(r2.server().multipart_upload_count() == 0);

    Emulated b2(mock::Emulation::b2, false);
    Client b2_client(b2.config(Provider::b2));
    auto b2_upload = b2_client.create_multipart_upload("bucket", "multi",
                                                       {.checksum_algorithm = ChecksumAlgorithm::crc32});
    REQUIRE_FALSE(b2_upload.ok());
    check_refused_before_sending(b2_upload.error(), b2.server(), "Backblaze B2");
  }
}

TEST_CASE("automatic detection treats the loopback mock server as a generic endpoint") {
  const auto data = test::make_data(1000, 9);
  Emulated emulated(mock::Emulation::aws);
  Client client(emulated.config(Provider::automatic));
  MemorySource body{std::span<const std::byte>(data)};
  auto put = client.put_object("bucket", "object", body);
  if (!put) FAIL(put.error().to_string());
  // Generic over HTTPS: a CRC32 header, the trailer only when the caller vouches for the endpoint.
  CHECK(put->checksum_location == ChecksumLocation::header);
  CHECK(put->checksum_algorithm == ChecksumAlgorithm::crc32);
}
