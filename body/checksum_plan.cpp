// body/checksum_plan.cpp: the text forms of the two settings that decide where the checksum travels
// (checksum location) and whether one is sent without being asked (checksum calculation).
#include <algorithm>
#include <cctype>

#include "s3up/body.h"

namespace s3up {

std::optional<ChecksumCalculation> parse_checksum_calculation(std::string_view text) {
  if (ascii_iequals(text, "when_supported")) return ChecksumCalculation::when_supported;
  if (ascii_iequals(text, "when_required")) return ChecksumCalculation::when_required;
  return std::nullopt;
}

std::optional<ChecksumLocation> parse_checksum_location(std::string_view text) {
  for (ChecksumLocation location : {ChecksumLocation::automatic, ChecksumLocation::trailer,
                                    ChecksumLocation::header, ChecksumLocation::none}) {
    if (ascii_iequals(text, to_string(location))) return location;
  }
  return std::nullopt;
}

std::string_view to_string(ChecksumLocation location) {
  switch (location) {
    case ChecksumLocation::automatic:
      return "auto";
    case ChecksumLocation::trailer:
      return "trailer";
    case ChecksumLocation::header:
      return "header";
    case ChecksumLocation::none:
      return "none";
  }
  return "unknown";
}

}  // namespace s3up
