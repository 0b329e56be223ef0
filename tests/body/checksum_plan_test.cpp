// checksum_plan_test.cpp: the text forms of the location and calculation settings (the choice itself is
// the client's, with the provider: tests/providers/provider_choice_test.cpp).
#include <catch2/catch.hpp>

#include "s3up/body.h"

using s3up::ChecksumCalculation;
using s3up::ChecksumLocation;

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
