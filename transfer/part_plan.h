// transfer/part_plan.h: how an object of known size is cut into parts: the part size, raised so that the
// parts fit S3's 10,000, and where each part lies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace s3up {

inline constexpr std::uint64_t max_part_size = 5ULL << 30;  // S3's largest part

struct PartPlan {
  std::uint64_t part_size = 0;  // every part's but the last
  int part_count = 0;
  std::uint64_t last_part_size = 0;

  std::uint64_t offset(int number) const { return static_cast<std::uint64_t>(number - 1) * part_size; }
  std::uint64_t length(int number) const { return number == part_count ? last_part_size : part_size; }
};

// The parts of `size` bytes (size > 0, part_size > 0): part_size as asked, or raised to the smallest size
// that needs no more than max_part_count parts. Pure arithmetic.
PartPlan plan_parts(std::uint64_t size, std::uint64_t part_size);

// Why part_size cannot be used (below floor, above max_part_size), or nullopt.
std::optional<std::string> part_size_problem(std::uint64_t part_size, std::uint64_t floor);

}  // namespace s3up
