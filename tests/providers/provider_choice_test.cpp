// provider_choice_test.cpp: what each provider profile makes of an upload request (checksum, location,
// payload mode, Content-MD5 fallback) and which explicit choices it refuses before anything is sent. The
// expected rows are read off ../shared/s3-compatibility.md, not derived from the table under test.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "client/provider_profile.h"
#include "s3up/client.h"

using namespace s3up;

namespace {

constexpr std::size_t mib = 1024 * 1024;

UploadRequest https_request() {
  UploadRequest request;
  request.https = true;
  request.body_size = 1000;
  return request;
}

Result<UploadChoice> choose(Provider provider, const UploadRequest& request) {
  return choose_upload(provider_profile(provider), request);
}

// The choice where the provider must accept the request: a refusal fails the test with its error printed.
UploadChoice chosen(Provider provider, const UploadRequest& request) {
  auto choice = choose(provider, request);
  if (!choice.ok()) FAIL(to_string(provider) << " refused the request: " << choice.error().to_string());
  return choice.value();
}

void check_refused(const Result<UploadChoice>& choice, const std::string& service) {
  REQUIRE_FALSE(choice.ok());
  CHECK(choice.error().kind == Error::Kind::invalid_argument);
  CHECK(choice.error().code == "UnsupportedByProvider");
  CHECK(choice.error().message.find(service) != std::string::npos);
  CHECK(choice.error().attempts == 0);
}

}  // namespace

TEST_CASE("each provider's default upload over HTTPS: the strongest check it accepts") {
  struct Row {
    Provider provider;
    ChecksumLocation location;
    bool crc32;        // CRC32 sent (the when_supported default); else no checksum
    bool content_md5;  // the Content-MD5 fallback
    bool sdk_header;   // x-amz-sdk-checksum-algorithm allowed
  };
  const Row rows[] = {
      {Provider::aws, ChecksumLocation::trailer, true, false, true},
      {Provider::minio, ChecksumLocation::trailer, true, false, true},
      {Provider::ceph, ChecksumLocation::header, true, false, true},      // trailers in recent releases only
      {Provider::wasabi, ChecksumLocation::header, true, false, true},    // no streaming at all
      {Provider::scaleway, ChecksumLocation::header, true, false, true},  // no trailers
      {Provider::r2, ChecksumLocation::header, true, false, true},
      {Provider::b2, ChecksumLocation::none, false, true, false},   // no x-amz-checksum header: Content-MD5
      {Provider::gcs, ChecksumLocation::none, false, true, false},  // Content-MD5 is the safe check
      {Provider::generic, ChecksumLocation::header, true, false, true},
  };
  for (const Row& row : rows) {
    INFO(to_string(row.provider));
    auto choice = choose(row.provider, https_request());
    REQUIRE(choice.ok());
    CHECK(choice->checksum.location == row.location);
    CHECK(choice->checksum.algorithm == (row.crc32 ? std::optional(ChecksumAlgorithm::crc32) : std::nullopt));
    CHECK(choice->aws_chunked == (row.location == ChecksumLocation::trailer));
    CHECK(choice->content_md5 == row.content_md5);
    CHECK(choice->sdk_checksum_header == row.sdk_header);
  }
}

TEST_CASE("provider defaults follow the scheme, the body size, the calculation and the caller's word") {
  UploadRequest http = https_request();
  http.https = false;
  auto aws_http = choose(Provider::aws, http);
  REQUIRE(aws_http.ok());
  CHECK(aws_http->checksum.location == ChecksumLocation::header);  // unsigned chunks need TLS

  UploadRequest empty = https_request();
  empty.body_size = 0;
  CHECK(chosen(Provider::minio, empty).checksum.location == ChecksumLocation::header);

  UploadRequest required = https_request();
  required.calculation = ChecksumCalculation::when_required;
  CHECK(chosen(Provider::aws, required).checksum.location == ChecksumLocation::none);
  auto b2_required = chosen(Provider::b2, required);
  CHECK(b2_required.checksum.location == ChecksumLocation::none);
  CHECK_FALSE(b2_required.content_md5);  // when_required: nothing the operation does not need

  UploadRequest none = https_request();
  none.location = ChecksumLocation::none;
  CHECK_FALSE(chosen(Provider::gcs, none).content_md5);  // location none: no check at all

  // Trailers where support is unknown only when the caller vouches for the endpoint.
  UploadRequest vouched = https_request();
  vouched.endpoint_accepts_trailers = true;
  CHECK(chosen(Provider::generic, vouched).checksum.location == ChecksumLocation::trailer);
  CHECK(chosen(Provider::ceph, vouched).checksum.location == ChecksumLocation::trailer);
  CHECK(chosen(Provider::r2, vouched).checksum.location == ChecksumLocation::trailer);
}

TEST_CASE("signed payloads stream signed chunks only where signed streaming is known to work") {
  UploadRequest signed_none = https_request();
  signed_none.signed_payload = true;
  signed_none.location = ChecksumLocation::none;
  CHECK(chosen(Provider::aws, signed_none).aws_chunked);           // STREAMING-AWS4-HMAC-SHA256-PAYLOAD
  CHECK(chosen(Provider::generic, signed_none).aws_chunked);       // as s3up always did
  CHECK_FALSE(chosen(Provider::r2, signed_none).aws_chunked);      // hex SHA-256 after a pre-read
  CHECK_FALSE(chosen(Provider::wasabi, signed_none).aws_chunked);  // idem
  CHECK_FALSE(chosen(Provider::b2, signed_none).aws_chunked);      // unknown: the safe form

  // Automatic never picks a signed trailer where signed streaming is refused, even when trailers may work.
  UploadRequest signed_auto = https_request();
  signed_auto.signed_payload = true;
  signed_auto.endpoint_accepts_trailers = true;
  auto r2 = choose(Provider::r2, signed_auto);
  REQUIRE(r2.ok());
  CHECK(r2->checksum.location == ChecksumLocation::header);
  CHECK_FALSE(r2->aws_chunked);
  CHECK(chosen(Provider::aws, signed_auto).checksum.location == ChecksumLocation::trailer);
}

TEST_CASE("explicit choices a provider refuses fail with the service named, never replaced") {
  UploadRequest crc64 = https_request();
  crc64.algorithm = ChecksumAlgorithm::crc64nvme;
  check_refused(choose(Provider::r2, crc64), "Cloudflare R2");
  crc64.location = ChecksumLocation::header;
  check_refused(choose(Provider::r2, crc64), "Cloudflare R2");
  CHECK(chosen(Provider::aws, crc64).checksum.algorithm == ChecksumAlgorithm::crc64nvme);

  UploadRequest crc32c = https_request();
  crc32c.algorithm = ChecksumAlgorithm::crc32c;
  check_refused(choose(Provider::wasabi, crc32c), "Wasabi");

  UploadRequest b2_algorithm = https_request();
  b2_algorithm.algorithm = ChecksumAlgorithm::crc32;
  check_refused(choose(Provider::b2, b2_algorithm), "Backblaze B2");
  UploadRequest b2_header = https_request();
  b2_header.location = ChecksumLocation::header;
  check_refused(choose(Provider::b2, b2_header), "Backblaze B2");

  UploadRequest trailer = https_request();
  trailer.location = ChecksumLocation::trailer;
  check_refused(choose(Provider::scaleway, trailer), "Scaleway");
  check_refused(choose(Provider::wasabi, trailer), "Wasabi");
  check_refused(choose(Provider::gcs, trailer), "Google Cloud Storage");
  check_refused(choose(Provider::b2, trailer), "Backblaze B2");
  // Unknown support: the caller's explicit word goes.
  CHECK(chosen(Provider::ceph, trailer).checksum.location == ChecksumLocation::trailer);
  CHECK(chosen(Provider::r2, trailer).checksum.location == ChecksumLocation::trailer);

  UploadRequest signed_trailer = trailer;
  signed_trailer.signed_payload = true;
  check_refused(choose(Provider::r2, signed_trailer), "Cloudflare R2");
  CHECK(chosen(Provider::minio, signed_trailer).aws_chunked);

  UploadRequest big_chunks = trailer;
  big_chunks.chunk_size = 32 * mib;
  check_refused(choose(Provider::minio, big_chunks), "MinIO");
  big_chunks.chunk_size = 16 * mib;  // the limit itself is accepted
  CHECK(choose(Provider::minio, big_chunks).ok());
  UploadRequest big_header = https_request();
  big_header.location = ChecksumLocation::header;
  big_header.chunk_size = 32 * mib;  // no aws-chunked body, no chunk
  CHECK(choose(Provider::minio, big_header).ok());

  // What a provider is not known to refuse is sent when asked.
  UploadRequest gcs_crc32c = https_request();
  gcs_crc32c.algorithm = ChecksumAlgorithm::crc32c;
  auto gcs = choose(Provider::gcs, gcs_crc32c);
  REQUIRE(gcs.ok());
  CHECK(gcs->checksum.location == ChecksumLocation::header);
  CHECK(gcs->checksum.algorithm == ChecksumAlgorithm::crc32c);
  CHECK_FALSE(gcs->content_md5);
}

TEST_CASE("a part of an upload without a checksum sends none, with the provider's Content-MD5 fallback") {
  UploadRequest part = https_request();
  part.part_without_checksum = true;
  auto b2 = choose(Provider::b2, part);
  REQUIRE(b2.ok());
  CHECK(b2->checksum.location == ChecksumLocation::none);
  CHECK(b2->content_md5);
  auto aws = chosen(Provider::aws, part);
  CHECK(aws.checksum.location == ChecksumLocation::none);
  CHECK_FALSE(aws.content_md5);
}

TEST_CASE("the algorithm CreateMultipartUpload declares, per provider") {
  auto algorithm = [](Provider provider, std::optional<ChecksumAlgorithm> requested,
                      ChecksumLocation location = ChecksumLocation::automatic,
                      ChecksumCalculation calculation = ChecksumCalculation::when_supported) {
    return choose_multipart_algorithm(provider_profile(provider), requested, location, calculation);
  };
  CHECK(algorithm(Provider::aws, std::nullopt).value() == ChecksumAlgorithm::crc32);
  CHECK(algorithm(Provider::r2, std::nullopt).value() == ChecksumAlgorithm::crc32);
  CHECK(algorithm(Provider::b2, std::nullopt).value() == std::nullopt);   // x-amz-checksum-algorithm refused
  CHECK(algorithm(Provider::gcs, std::nullopt).value() == std::nullopt);  // support unknown
  CHECK(algorithm(Provider::gcs, ChecksumAlgorithm::sha256).value() == ChecksumAlgorithm::sha256);
  CHECK(
      algorithm(Provider::aws, std::nullopt, ChecksumLocation::automatic, ChecksumCalculation::when_required)
          .value() == std::nullopt);
  CHECK(algorithm(Provider::aws, ChecksumAlgorithm::sha1, ChecksumLocation::none).value() == std::nullopt);

  auto b2 = algorithm(Provider::b2, ChecksumAlgorithm::crc32);
  REQUIRE_FALSE(b2.ok());
  CHECK(b2.error().code == "UnsupportedByProvider");
  auto r2 = algorithm(Provider::r2, ChecksumAlgorithm::crc64nvme);
  REQUIRE_FALSE(r2.ok());
  CHECK(r2.error().message.find("CRC64NVME") != std::string::npos);
  CHECK_FALSE(algorithm(Provider::scaleway, std::nullopt, ChecksumLocation::trailer).ok());
}

TEST_CASE("endpoint_accepts_trailers contradicts a provider that refuses trailers") {
  ClientConfig config;
  config.endpoint_accepts_trailers = true;
  auto error = check_provider_config(provider_profile(Provider::scaleway), config);
  REQUIRE(error);
  CHECK(error->kind == Error::Kind::invalid_argument);
  CHECK(error->message.find("Scaleway") != std::string::npos);
  CHECK_FALSE(check_provider_config(provider_profile(Provider::generic), config));
  CHECK_FALSE(check_provider_config(provider_profile(Provider::ceph), config));
}

TEST_CASE("explicit algorithms and locations are kept, and location none sends nothing") {
  for (Provider provider : {Provider::aws, Provider::generic}) {
    INFO(to_string(provider));
    // An explicit algorithm is sent even under when_required, where it is the only reason to send one.
    UploadRequest explicit_algorithm = https_request();
    explicit_algorithm.calculation = ChecksumCalculation::when_required;
    explicit_algorithm.algorithm = ChecksumAlgorithm::sha256;
    explicit_algorithm.location = ChecksumLocation::header;
    UploadChoice header = chosen(provider, explicit_algorithm);
    CHECK(header.checksum.algorithm == ChecksumAlgorithm::sha256);
    CHECK(header.checksum.location == ChecksumLocation::header);

    // An explicit trailer stays a trailer over plain HTTP and for an empty body, where automatic would not.
    UploadRequest explicit_trailer = https_request();
    explicit_trailer.https = false;
    explicit_trailer.body_size = 0;
    explicit_trailer.algorithm = ChecksumAlgorithm::sha1;
    explicit_trailer.location = ChecksumLocation::trailer;
    UploadChoice trailer = chosen(provider, explicit_trailer);
    CHECK(trailer.checksum.algorithm == ChecksumAlgorithm::sha1);
    CHECK(trailer.checksum.location == ChecksumLocation::trailer);
    CHECK(trailer.aws_chunked);

    // Location none: no checksum at all, whatever algorithm was asked.
    UploadRequest none = https_request();
    none.algorithm = ChecksumAlgorithm::sha256;
    none.location = ChecksumLocation::none;
    UploadChoice nothing = chosen(provider, none);
    CHECK_FALSE(nothing.checksum.algorithm.has_value());
    CHECK(nothing.checksum.location == ChecksumLocation::none);
    CHECK_FALSE(nothing.aws_chunked);
  }
  // A 5 GiB body over HTTPS to AWS still streams with a trailer (no pre-read of gigabytes).
  UploadRequest large = https_request();
  large.body_size = 5ull << 30;
  CHECK(chosen(Provider::aws, large).checksum.location == ChecksumLocation::trailer);
}
