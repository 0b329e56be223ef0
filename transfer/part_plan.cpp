// part_plan.cpp: the part size and count of a multipart upload of known size.
#include "transfer/part_plan.h"

#include <string>

#include "s3up/transfer.h"

namespace s3up {

PartPlan plan_parts(std::uint64_t size, std::uint64_t part_size) {
  const auto count_for = [size](std::uint64_t part) { return size / part + (size % part != 0 ? 1 : 0); };
  PartPlan plan;
  plan.part_size = part_size;
  if (count_for(part_size) > static_cast<std::uint64_t>(max_part_count)) {
    // The smallest part size that fits: ceil(size / max_part_count).
    plan.part_size = count_for(static_cast<std::uint64_t>(max_part_count));
  }
  plan.part_count = static_cast<int>(count_for(plan.part_size));
  plan.last_part_size = size - static_cast<std::uint64_t>(plan.part_count - 1) * plan.part_size;
  return plan;
}

std::optional<std::string> part_size_problem(std::uint64_t part_size, std::uint64_t floor) {
  if (part_size < floor) {
    return "part size " + std::to_string(part_size) + " is below the smallest part S3 accepts (" +
           std::to_string(floor) + " bytes; only the last part may be smaller)";
  }
  if (part_size > max_part_size) {
    return "part size " + std::to_string(part_size) + " is above the largest part S3 accepts (" +
           std::to_string(max_part_size) + " bytes)";
  }
  if (part_size == 0) return "part size 0";
  return std::nullopt;
}

}  // namespace s3up
