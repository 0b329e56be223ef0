// upload_test.cpp: upload() against the mock server over real sockets: sizes around the threshold and the
// part boundaries for every kind of body, every checksum algorithm and type (values from make_vectors.py,
// and checked by the server), empty and short streams, retried and failed parts (aborted: no upload left),
// bodies that break their promise, progress across retries, and concurrency 1 against 4.
#include <catch2/catch.hpp>

#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "s3up/transfer.h"
#include "transfer_support.h"

using namespace s3up;
using test::BodyKind;
using test::small_part;
using test::small_parts;

namespace {

// The stored object is exactly data, in `parts` parts (0: one PutObject), with the CRC32 of its bytes as
// its FULL_OBJECT checksum (computed here over the whole object, not combined from parts).
void require_stored(const mock::Server& server, const std::string& key, const std::vector<std::byte>& data,
                    int parts) {
  auto stored = server.object("bucket", key);
  REQUIRE(stored);
  CHECK(stored->size == data.size());
  CHECK(stored->parts == parts);
  REQUIRE(stored->checksum);
  CHECK(stored->checksum->first == "x-amz-checksum-crc32");
  CHECK(stored->checksum->second == compute_checksum(ChecksumAlgorithm::crc32, data).base64());
  CHECK(stored->checksum_type == "FULL_OBJECT");
  auto bytes = server.object_data("bucket", key);
  REQUIRE(bytes);
  CHECK(*bytes == data);
}

}  // namespace

TEST_CASE("round trips around the threshold and the part boundaries, for every kind of body",
          "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  constexpr std::uint64_t threshold = 40000;
  const UploadOptions options = small_parts(threshold);
  const std::vector<std::uint64_t> sizes = {
      threshold - 1,  threshold,          threshold + 1,  3 * small_part - 1,
      3 * small_part, 3 * small_part + 1, 5 * small_part, 1};

  for (BodyKind kind : test::all_body_kinds()) {
    for (std::uint64_t size : sizes) {
      INFO(test::name(kind) << ", " << size << " bytes");
      const auto data = test::make_data(size, static_cast<std::uint32_t>(size));
      test::TestBody body(kind, data);
      const std::string key = std::string("round-trip/") + test::name(kind) + "/" + std::to_string(size);
      auto result = upload(config, "bucket", key, body.source(), options);
      if (!result) FAIL(result.error().to_string());
      const int parts = size >= threshold ? static_cast<int>(test::parts_for(size, small_part)) : 0;
      CHECK(result->parts == parts);
      CHECK(result->bytes == size);
      CHECK(result->checksum_algorithm == ChecksumAlgorithm::crc32);
      CHECK(result->checksum_type == ChecksumType::full_object);
      CHECK(result->checksum == compute_checksum(ChecksumAlgorithm::crc32, data).base64());
      CHECK_FALSE(result->etag.empty());
      require_stored(server, key, data, parts);
    }
  }
  CHECK(server.multipart_upload_count() == 0);
}

TEST_CASE("a threshold at the part size: one part, then a part of one byte", "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  for (BodyKind kind : {BodyKind::memory, BodyKind::pipe}) {
    for (std::uint64_t size : {small_part, small_part + 1}) {
      INFO(test::name(kind) << ", " << size << " bytes");
      const auto data = test::make_data(size, 3);
      test::TestBody body(kind, data);
      const std::string key = "at-part-size/" + std::to_string(size);
      auto result = upload(config, "bucket", key, body.source(), small_parts(small_part));
      if (!result) FAIL(result.error().to_string());
      CHECK(result->parts == static_cast<int>(test::parts_for(size, small_part)));
      require_stored(server, key, data, result->parts);
    }
  }
}

TEST_CASE("every checksum algorithm and type: the values computed independently, and checked by the server",
          "[transfer][integration]") {
  // python3 tests/transfer/make_vectors.py 100000 5 32768: make_data(100000, 5) in parts of 32768, 32768,
  // 32768 and 1696 bytes.
  struct Expected {
    ChecksumAlgorithm algorithm;
    ChecksumType type;
    const char* checksum;
  };
  const std::vector<Expected> expected = {
      {ChecksumAlgorithm::crc32, ChecksumType::full_object, "LwRQTA=="},
      {ChecksumAlgorithm::crc32, ChecksumType::composite, "CjTOmA==-4"},
      {ChecksumAlgorithm::crc32c, ChecksumType::full_object, "lH7bTg=="},
      {ChecksumAlgorithm::crc32c, ChecksumType::composite, "t5hLXw==-4"},
      {ChecksumAlgorithm::crc64nvme, ChecksumType::full_object, "z1fNVLbbHb0="},
      {ChecksumAlgorithm::sha1, ChecksumType::composite, "r+pgdyF/XYcHbVrGR/oDZi5Y3l8=-4"},
      {ChecksumAlgorithm::sha256, ChecksumType::composite, "hHcPgJ4+U7kKHr+B3SbbtAZuOjfDIXihupvTQRgSoqA=-4"},
  };
  const auto data = test::make_data(100000, 5);
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);

  for (const Expected& e : expected) {
    for (BodyKind kind : {BodyKind::memory, BodyKind::pipe}) {
      for (ChecksumLocation location : {ChecksumLocation::header, ChecksumLocation::trailer}) {
        INFO(algorithm_name(e.algorithm)
             << " " << to_string(e.type) << ", " << test::name(kind) << ", " << to_string(location));
        UploadOptions options = small_parts(40000, 32768);
        options.put.checksum_algorithm = e.algorithm;
        options.put.checksum_location = location;
        options.checksum_type = e.type;
        test::TestBody body(kind, data);
        const std::string key =
            "pairs/" + std::string(algorithm_name(e.algorithm)) + std::string(to_string(e.type));
        auto result = upload(config, "bucket", key, body.source(), options);
        if (!result) FAIL(result.error().to_string());
        CHECK(result->parts == 4);
        CHECK(result->checksum_algorithm == e.algorithm);
        CHECK(result->checksum_type == e.type);
        CHECK(result->checksum == e.checksum);
        CHECK(result->checksum_location == location);
        auto stored = server.object("bucket", key);
        REQUIRE(stored);
        REQUIRE(stored->checksum);
        CHECK(stored->checksum->first == header_name(e.algorithm));
        CHECK(stored->checksum->second == e.checksum);
        CHECK(stored->checksum_type == to_string(e.type));
        CHECK(*server.object_data("bucket", key) == data);
      }
    }
  }
  // The default type: FULL_OBJECT for a CRC, COMPOSITE for a SHA.
  for (auto [algorithm, type] : std::vector<std::pair<ChecksumAlgorithm, ChecksumType>>{
           {ChecksumAlgorithm::crc32c, ChecksumType::full_object},
           {ChecksumAlgorithm::sha1, ChecksumType::composite}}) {
    UploadOptions options = small_parts(40000, 32768);
    options.put.checksum_algorithm = algorithm;
    MemorySource body{std::span<const std::byte>(data)};
    auto result = upload(config, "bucket", "default-type", body, options);
    if (!result) FAIL(result.error().to_string());
    CHECK(result->checksum_type == type);
  }
  CHECK(server.multipart_upload_count() == 0);
}

TEST_CASE("unsupported algorithm/type pairs and bad options are refused before any request",
          "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(100000, 1);
  auto refused = [&](const UploadOptions& options, const ClientConfig& with = {}) {
    MemorySource body{std::span<const std::byte>(data)};
    auto result = upload(with.endpoint_url.empty() ? config : with, "bucket", "refused", body, options);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::invalid_argument);
    CHECK(result.error().attempts == 0);
  };
  using A = ChecksumAlgorithm;
  using T = ChecksumType;
  for (auto [algorithm, type] : std::vector<std::pair<A, T>>{
           {A::sha1, T::full_object}, {A::sha256, T::full_object}, {A::crc64nvme, T::composite}}) {
    INFO(algorithm_name(algorithm) << " " << to_string(type));
    UploadOptions options = small_parts(40000);
    options.put.checksum_algorithm = algorithm;
    options.checksum_type = type;
    refused(options);
    // Even for an object small enough for one PutObject: the options are wrong either way.
    options.multipart_threshold = 1 << 30;
    refused(options);
  }
  UploadOptions md5 = small_parts(40000);
  md5.put.checksum_algorithm = A::md5;
  refused(md5);
  // A type without an algorithm to go with it.
  UploadOptions type_only = small_parts(40000);
  type_only.checksum_type = T::composite;
  type_only.put.checksum_location = ChecksumLocation::none;
  refused(type_only);
  ClientConfig required = config;
  required.checksum_calculation = ChecksumCalculation::when_required;
  type_only.put.checksum_location.reset();
  refused(type_only, required);

  UploadOptions no_threads = small_parts(40000);
  no_threads.concurrency = 0;
  refused(no_threads);
  UploadOptions tiny = small_parts(40000, small_part - 1);
  refused(tiny);
  UploadOptions s3_floor;  // S3's 5 MiB floor applies unless lowered
  s3_floor.part_size = 1 << 20;
  refused(s3_floor);
  UploadOptions huge = small_parts(40000, (5ULL << 30) + 1);
  refused(huge);
  for (std::size_t outside_curl : {min_upload_buffer_size - 1, max_upload_buffer_size + 1}) {
    UploadOptions odd_buffer = small_parts(40000);
    odd_buffer.part_upload_buffer_size = outside_curl;
    refused(odd_buffer);
  }
  CHECK(server.stats().requests == 0);
}

TEST_CASE("empty and short streams go by one PutObject", "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const std::vector<std::byte> nothing;
  for (BodyKind kind : test::all_body_kinds()) {
    for (std::uint64_t threshold : {std::uint64_t{0}, std::uint64_t{40000}}) {
      INFO(test::name(kind) << ", threshold " << threshold);
      test::TestBody body(kind, nothing);
      auto result = upload(config, "bucket", "empty", body.source(), small_parts(threshold));
      if (!result) FAIL(result.error().to_string());
      CHECK(result->parts == 0);
      CHECK(result->bytes == 0u);
      CHECK(result->checksum == "AAAAAA==");  // CRC32 of nothing, reference §5.2
      require_stored(server, "empty", nothing, 0);
    }
  }
  // A stream of unknown length below the threshold, read into several part buffers: one PutObject of them
  // all.
  const auto data = test::make_data(3 * small_part + 5, 8);
  test::TestBody pipe(BodyKind::pipe, data);
  auto result = upload(config, "bucket", "short", pipe.source(), small_parts(4 * small_part, small_part, 4));
  if (!result) FAIL(result.error().to_string());
  CHECK(result->parts == 0);
  require_stored(server, "short", data, 0);
  // With fewer buffers than the threshold needs, the stream goes multipart once they are full.
  test::TestBody narrow(BodyKind::pipe, data);
  result = upload(config, "bucket", "narrow", narrow.source(), small_parts(4 * small_part, small_part, 2));
  if (!result) FAIL(result.error().to_string());
  CHECK(result->parts == 4);
  require_stored(server, "narrow", data, 4);
  CHECK(server.multipart_upload_count() == 0);
}

TEST_CASE("a failing part is retried on its own", "[transfer][integration][retry]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(100000, 6);  // 7 parts of 16 KiB (the last 1696 bytes)
  for (BodyKind kind : {BodyKind::memory, BodyKind::file, BodyKind::pipe}) {
    for (mock::Fault::Kind fault_kind :
         {mock::Fault::Kind::error_response, mock::Fault::Kind::reset_after_bytes}) {
      INFO(test::name(kind) << ", fault " << static_cast<int>(fault_kind));
      mock::Fault fault;
      fault.kind = fault_kind;
      fault.status = 503;
      fault.code = "SlowDown";
      fault.after_bytes = 5000;  // for the reset: mid-part
      fault.method = "PUT";      // parts only: Create and Complete are POSTs
      fault.count = 1;
      server.inject_fault(fault);
      test::TestBody body(kind, data);
      auto result = upload(config, "bucket", "retried", body.source(), small_parts(40000));
      if (!result) FAIL(result.error().to_string());
      CHECK(server.pending_faults() == 0);
      CHECK(result->parts == 7);
      // 7 parts, one of them twice, and Create and Complete.
      CHECK(result->attempts == 7 + 1 + 2);
      require_stored(server, "retried", data, 7);
    }
  }
  CHECK(server.multipart_upload_count() == 0);
}

TEST_CASE("an upload whose part finally fails is aborted: no upload is left",
          "[transfer][integration][retry]") {
  mock::Server server(test::small_part_options());
  ClientConfig config = test::transfer_config(server);
  config.retry.max_attempts = 1;
  const auto data = test::make_data(200000, 7);
  for (BodyKind kind : test::all_body_kinds()) {
    INFO(test::name(kind));
    mock::Fault fault;
    fault.kind = mock::Fault::Kind::error_response;
    fault.status = 500;
    fault.code = "InternalError";
    fault.method = "PUT";
    server.inject_fault(fault);
    test::TestBody body(kind, data);
    auto result = upload(config, "bucket", "failed", body.source(), small_parts(40000, small_part, 4));
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::service);
    CHECK(result.error().http_status == 500);
    CHECK(result.error().code == "InternalError");
    CHECK(result.error().message.find("aborted") != std::string::npos);
    CHECK(server.multipart_upload_count() == 0);
    CHECK_FALSE(server.object("bucket", "failed"));
  }
}

TEST_CASE("bodies that break their promise fail typed, and the upload is aborted",
          "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(100000, 9);

  SECTION("a callback that declares more than it has") {
    std::size_t position = 0;
    CallbackSource body = test::callback_source(data, position, false, 150000);
    auto result = upload(config, "bucket", "short", body, small_parts(40000));
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::body);
    CHECK(result.error().code == "BodyEndedEarly");
  }
  SECTION("a callback that has more than it declares") {
    std::size_t position = 0;
    CallbackSource body = test::callback_source(data, position, false, 60000);
    auto result = upload(config, "bucket", "long", body, small_parts(40000));
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::body);
    CHECK(result.error().code == "BodyLongerThanDeclared");
  }
  SECTION("a stream of unknown length that fails midway") {
    std::size_t position = 0;
    CallbackSource body([&](std::span<std::byte> dest) -> std::ptrdiff_t {
      if (position >= 70000) return -5;
      std::size_t n = std::min<std::size_t>(dest.size(), 70000 - position);
      std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(position), n, dest.begin());
      position += n;
      return static_cast<std::ptrdiff_t>(n);
    });
    auto result = upload(config, "bucket", "broken", body, small_parts(40000));
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::body);
    CHECK(result.error().code == "BodyReadFailed");
  }
  CHECK(server.multipart_upload_count() == 0);
  CHECK(server.object_count() == 0);
}

TEST_CASE("progress is summed over parallel parts, never goes back across a retry, and reaches the total",
          "[transfer][integration][progress]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(2 << 20, 10);  // 8 parts of 256 KiB

  for (BodyKind kind : {BodyKind::memory, BodyKind::pipe}) {
    INFO(test::name(kind));
    // The first part is refused after its whole body was read: its retry counts from 0 again.
    mock::Fault fault;
    fault.kind = mock::Fault::Kind::error_response;
    fault.status = 503;
    fault.code = "SlowDown";
    fault.method = "PUT";
    server.inject_fault(fault);

    std::mutex mutex;
    std::vector<UploadProgress> reports;
    UploadOptions options = small_parts(1 << 20, 256 << 10, 4);
    options.progress = [&](const UploadProgress& progress) {
      std::lock_guard lock(mutex);
      reports.push_back(progress);
    };
    test::TestBody body(kind, data);
    auto result = upload(config, "bucket", "progress", body.source(), options);
    if (!result) FAIL(result.error().to_string());
    CHECK(result->attempts == 8 + 1 + 2);
    require_stored(server, "progress", data, 8);

    std::lock_guard lock(mutex);
    REQUIRE(reports.size() >= 3);
    for (std::size_t i = 1; i < reports.size(); ++i)
      CHECK(reports[i].bytes_sent >= reports[i - 1].bytes_sent);
    CHECK(reports.back().bytes_sent == data.size());
    for (const UploadProgress& report : reports) {
      CHECK(report.bytes_sent <= data.size());
      if (kind == BodyKind::memory) {
        CHECK(report.total_bytes == data.size());
      } else {
        CHECK_FALSE(report.total_bytes);
      }
    }
  }
}

TEST_CASE("progress of a single PutObject", "[transfer][integration][progress]") {
  mock::Server server(test::small_part_options());
  const auto data = test::make_data(1 << 20, 12);
  std::vector<UploadProgress> reports;
  UploadOptions options = small_parts(2 << 20);
  options.progress = [&](const UploadProgress& progress) { reports.push_back(progress); };
  MemorySource body{std::span<const std::byte>(data)};
  auto result = upload(test::transfer_config(server), "bucket", "single", body, options);
  if (!result) FAIL(result.error().to_string());
  CHECK(result->parts == 0);
  REQUIRE(reports.size() >= 2);
  for (std::size_t i = 1; i < reports.size(); ++i) CHECK(reports[i].bytes_sent >= reports[i - 1].bytes_sent);
  CHECK(reports.back().bytes_sent == data.size());
}

TEST_CASE("concurrency 1 and 4 store the same bytes and the same object", "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(300000, 13);  // 19 parts
  for (BodyKind kind : {BodyKind::memory, BodyKind::file, BodyKind::pipe}) {
    INFO(test::name(kind));
    std::vector<UploadResult> results;
    for (int concurrency : {1, 4}) {
      test::TestBody body(kind, data);
      const std::string key = "concurrency-" + std::to_string(concurrency);
      auto result = upload(config, "bucket", key, body.source(), small_parts(40000, small_part, concurrency));
      if (!result) FAIL(result.error().to_string());
      require_stored(server, key, data, 19);
      results.push_back(result.value());
    }
    CHECK(results[0].etag == results[1].etag);
    CHECK(results[0].checksum == results[1].checksum);
    CHECK(results[0].parts == results[1].parts);
  }
}

TEST_CASE("parts sent through curl's smallest and largest upload buffers store the same object",
          "[transfer][integration]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(300000, 29);  // 19 parts
  std::vector<UploadResult> results;
  for (std::size_t buffer_size : {min_upload_buffer_size, max_upload_buffer_size}) {
    test::TestBody body(BodyKind::file, data);
    UploadOptions options = small_parts(40000, small_part, 4);
    options.part_upload_buffer_size = buffer_size;
    const std::string key = "part-buffer-" + std::to_string(buffer_size);
    auto result = upload(config, "bucket", key, body.source(), options);
    if (!result) FAIL(result.error().to_string());
    require_stored(server, key, data, 19);
    results.push_back(result.value());
  }
  CHECK(results[0].etag == results[1].etag);
  CHECK(results[0].checksum == results[1].checksum);
}

TEST_CASE("cancel: a stop requested before or during the upload ends it cancelled, aborted",
          "[transfer][integration][cancel]") {
  mock::Server server(test::small_part_options());
  const ClientConfig config = test::transfer_config(server);
  const auto data = test::make_data(2 << 20, 14);

  std::stop_source before;
  before.request_stop();
  UploadOptions options = small_parts(1 << 20, 256 << 10, 2);
  options.cancel = before.get_token();
  MemorySource body{std::span<const std::byte>(data)};
  auto result = upload(config, "bucket", "cancelled", body, options);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::cancelled);
  CHECK(server.stats().requests == 0);

  for (BodyKind kind : {BodyKind::memory, BodyKind::pipe}) {
    INFO(test::name(kind));
    std::stop_source during;
    options.cancel = during.get_token();
    // The first report of progress asks to stop: parts are in flight then.
    options.progress = [&during](const UploadProgress&) { during.request_stop(); };
    test::TestBody source(kind, data);
    result = upload(config, "bucket", "cancelled", source.source(), options);
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == Error::Kind::cancelled);
    CHECK(server.multipart_upload_count() == 0);
    CHECK_FALSE(server.object("bucket", "cancelled"));
  }
}
