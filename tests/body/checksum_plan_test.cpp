// checksum_plan_test.cpp: plan_checksum's truth table and the text forms of the location and calculation
// settings.
#include <catch2/catch.hpp>

#include "s3up/body.h"

using s3up::ChecksumAlgorithm;
using s3up::ChecksumCalculation;
using s3up::ChecksumLocation;
using s3up::EndpointTraits;
using s3up::plan_checksum;

namespace {

constexpr EndpointTraits aws_https{true, true};
constexpr EndpointTraits aws_http{false, true};
constexpr EndpointTraits custom_https{true, false};

}  // namespace

TEST_CASE("plan_checksum: location none sends nothing, whatever was asked") {
  for (auto calculation : {ChecksumCalculation::when_supported, ChecksumCalculation::when_required}) {
    auto plan = plan_checksum(ChecksumAlgorithm::sha256, ChecksumLocation::none, calculation, aws_https, 100);
    CHECK_FALSE(plan.algorithm.has_value());
    CHECK(plan.location == ChecksumLocation::none);
  }
}

TEST_CASE("plan_checksum: algorithm choice") {
  // No algorithm asked: when_supported picks CRC32, when_required sends none.
  auto plan = plan_checksum(std::nullopt, ChecksumLocation::header, ChecksumCalculation::when_supported,
                            aws_https, 1);
  CHECK(plan.algorithm == ChecksumAlgorithm::crc32);
  CHECK(plan.location == ChecksumLocation::header);
  plan = plan_checksum(std::nullopt, ChecksumLocation::trailer, ChecksumCalculation::when_required, aws_https,
                       1);
  CHECK_FALSE(plan.algorithm.has_value());
  CHECK(plan.location == ChecksumLocation::none);
  // An explicit algorithm is always sent.
  plan = plan_checksum(ChecksumAlgorithm::crc64nvme, ChecksumLocation::trailer,
                       ChecksumCalculation::when_required, aws_http, 1);
  CHECK(plan.algorithm == ChecksumAlgorithm::crc64nvme);
  CHECK(plan.location == ChecksumLocation::trailer);
}

TEST_CASE(
    "plan_checksum: automatic is trailer only for HTTPS endpoints that accept trailers, non-empty bodies") {
  struct Row {
    EndpointTraits endpoint;
    std::uint64_t size;
    ChecksumLocation expected;
  };
  const Row rows[] = {
      {aws_https, 1, ChecksumLocation::trailer},       {aws_https, 0, ChecksumLocation::header},
      {aws_http, 1, ChecksumLocation::header},         {custom_https, 1, ChecksumLocation::header},
      {EndpointTraits{}, 1, ChecksumLocation::header}, {aws_https, 5ull << 30, ChecksumLocation::trailer},
  };
  for (const Row& row : rows) {
    INFO("https " << row.endpoint.https << ", trailers " << row.endpoint.accepts_trailers << ", size "
                  << row.size);
    auto plan = plan_checksum(std::nullopt, ChecksumLocation::automatic, ChecksumCalculation::when_supported,
                              row.endpoint, row.size);
    CHECK(plan.algorithm == ChecksumAlgorithm::crc32);
    CHECK(plan.location == row.expected);
  }
  // Explicit locations are kept even where automatic would choose otherwise.
  CHECK(plan_checksum(ChecksumAlgorithm::sha1, ChecksumLocation::trailer, ChecksumCalculation::when_supported,
                      aws_http, 0)
            .location == ChecksumLocation::trailer);
  CHECK(plan_checksum(ChecksumAlgorithm::sha1, ChecksumLocation::header, ChecksumCalculation::when_supported,
                      aws_https, 10)
            .location == ChecksumLocation::header);
}

TEST_CASE("checksum settings parse in any case and print back") {
  CHECK(s3up::parse_checksum_calculation("when_supported") == ChecksumCalculation::when_supported);
  CHECK(s3up::parse_checksum_calculation("WHEN_REQUIRED") == ChecksumCalculation::when_required);
  CHECK_FALSE(s3up::parse_checksum_calculation("sometimes").has_value());
  CHECK_FALSE(s3up::parse_checksum_calculation("").has_value());

  CHECK(s3up::parse_checksum_location("auto") == ChecksumLocation::automatic);
  CHECK(s3up::parse_checksum_location("Trailer") == ChecksumLocation::trailer);
  CHECK(s3up::parse_checksum_location("HEADER") == ChecksumLocation::header);
  CHECK(s3up::parse_checksum_location("none") == ChecksumLocation::none);
  CHECK_FALSE(s3up::parse_checksum_location("body").has_value());
  CHECK(s3up::to_string(ChecksumLocation::automatic) == "auto");
  CHECK(s3up::to_string(ChecksumLocation::trailer) == "trailer");
  CHECK(s3up::to_string(ChecksumLocation::header) == "header");
  CHECK(s3up::to_string(ChecksumLocation::none) == "none");
}
