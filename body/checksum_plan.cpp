// body/checksum_plan.cpp: where the checksum travels (trailer, header or nowhere) and with which algorithm,
// plus the text forms of the two settings that decide it.
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

ChecksumPlan plan_checksum(std::optional<ChecksumAlgorithm> requested_algorithm,
                           ChecksumLocation requested_location, ChecksumCalculation calculation,
                           EndpointTraits endpoint, std::uint64_t body_size) {
  if (requested_location == ChecksumLocation::none) return {};
  std::optional<ChecksumAlgorithm> algorithm = requested_algorithm;
  if (!algorithm && calculation == ChecksumCalculation::when_supported)
    algorithm = default_checksum_algorithm;
  if (!algorithm) return {};

  ChecksumLocation location = requested_location;
  if (location == ChecksumLocation::automatic) {
    // A trailer saves the pre-read pass, but only endpoints known to parse aws-chunked trailers get one, over
    // TLS (as the SDKs do: unsigned chunks rely on TLS for integrity of the framing), and an empty body gains
    // nothing from chunking.
    bool trailer = endpoint.https && endpoint.accepts_trailers && body_size > 0;
    location = trailer ? ChecksumLocation::trailer : ChecksumLocation::header;
  }
  return {algorithm, location};
}

}  // namespace s3up
