// part_plan_test.cpp: the pure pieces of upload(): how a size is cut into parts (the part size raised so
// that at most 10,000 parts are needed, worked out by hand or with Python integer arithmetic), the part
// size limits, the bounded buffer pool and the progress that never goes backwards.
#include <catch2/catch.hpp>

#include <vector>

#include "s3up/transfer.h"
#include "transfer/part_buffer_pool.h"
#include "transfer/part_plan.h"
#include "transfer/progress_tracker.h"

using namespace s3up;

TEST_CASE("plan_parts: the asked part size while it fits, else the smallest that needs 10,000 parts",
          "[transfer][plan]") {
  // Exact multiples and one byte over.
  PartPlan plan = plan_parts(100, 10);
  CHECK(plan.part_size == 10u);
  CHECK(plan.part_count == 10);
  CHECK(plan.last_part_size == 10u);
  plan = plan_parts(101, 10);
  CHECK(plan.part_count == 11);
  CHECK(plan.last_part_size == 1u);
  CHECK(plan.offset(11) == 100u);
  CHECK(plan.length(11) == 1u);
  CHECK(plan.length(10) == 10u);
  plan = plan_parts(99, 10);
  CHECK(plan.part_count == 10);
  CHECK(plan.last_part_size == 9u);
  plan = plan_parts(1, 8 << 20);
  CHECK(plan.part_count == 1);
  CHECK(plan.last_part_size == 1u);

  // 10,000 parts of 8 MiB fit exactly; one byte more raises the part size to ceil(size / 10000).
  plan = plan_parts(8ULL * 1024 * 1024 * 10000, 8 << 20);
  CHECK(plan.part_size == 8u << 20);
  CHECK(plan.part_count == 10000);
  plan = plan_parts(8ULL * 1024 * 1024 * 10000 + 1, 8 << 20);
  CHECK(plan.part_size == 8388609u);
  CHECK(plan.part_count == 10000);
  CHECK(plan.last_part_size == 8378610u);

  // S3's largest object, 5 TiB, at the default part size.
  plan = plan_parts(5ULL << 40, default_part_size);
  CHECK(plan.part_size == 549755814u);
  CHECK(plan.part_count == 10000);
  CHECK(plan.last_part_size == 549754694u);
  CHECK(plan.offset(10000) + plan.length(10000) == 5ULL << 40);
  plan = plan_parts(1'000'000'000'000ULL, default_part_size);
  CHECK(plan.part_size == 100'000'000u);
  CHECK(plan.part_count == 10000);
  plan = plan_parts(123456789, 5 << 20);
  CHECK(plan.part_count == 24);
  CHECK(plan.last_part_size == 2870549u);
}

TEST_CASE("part sizes outside S3's limits are named", "[transfer][plan]") {
  CHECK_FALSE(part_size_problem(min_part_size, min_part_size));
  CHECK(part_size_problem(min_part_size - 1, min_part_size));
  CHECK_FALSE(part_size_problem(5ULL << 30, min_part_size));
  CHECK(part_size_problem((5ULL << 30) + 1, min_part_size));
  CHECK_FALSE(part_size_problem(1, 1));
  CHECK(part_size_problem(0, 0));
}

TEST_CASE("the part buffer pool makes at most its count of buffers and reuses them", "[transfer][buffers]") {
  PartBufferPool pool(2, 1024);
  CHECK(pool.allocated() == 0u);
  std::span<std::byte> a = pool.acquire();
  std::span<std::byte> b = pool.acquire();
  CHECK(a.size() == 1024u);
  CHECK(b.size() == 1024u);
  CHECK(a.data() != b.data());
  CHECK(pool.allocated() == 2u);
  pool.release(a);
  std::span<std::byte> c = pool.acquire();
  CHECK(c.data() == a.data());  // the same buffer again, not a new one
  pool.release(b);
  pool.release(c);
  for (int i = 0; i < 10; ++i) pool.release(pool.acquire());
  CHECK(pool.allocated() == 2u);
  pool.close();
  CHECK(pool.acquire().empty());
}

TEST_CASE("progress sums each part's best, so a retry starting over never takes it back",
          "[transfer][progress]") {
  std::vector<UploadProgress> reports;
  ProgressTracker tracker([&](const UploadProgress& p) { reports.push_back(p); }, 1'000'000);
  constexpr std::uint64_t kib = 1024;
  tracker.part_progress(1, 100 * kib);  // below a report's step: nothing yet
  CHECK(reports.empty());
  tracker.part_progress(2, 200 * kib);  // 300 KiB in all
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].bytes_sent == 300 * kib);
  CHECK(reports[0].total_bytes == 1'000'000u);
  // Part 1 is retried: its count starts again at 0, then climbs past where it was.
  tracker.part_progress(1, 0);
  tracker.part_progress(1, 50 * kib);
  tracker.part_progress(1, 100 * kib);
  CHECK(reports.size() == 1);
  tracker.part_progress(1, 400 * kib);  // 300 KiB more than its best: 600 KiB in all
  REQUIRE(reports.size() == 2);
  CHECK(reports[1].bytes_sent == 600 * kib);
  tracker.part_progress(7, 1);  // a new part, beyond the first ones seen
  tracker.finish(1'000'000);
  REQUIRE(reports.size() == 3);
  CHECK(reports[2].bytes_sent == 1'000'000u);
  tracker.part_progress(3, 900 * kib);  // after finish: nothing more
  tracker.finish(1'000'000);
  CHECK(reports.size() == 3);
  for (std::size_t i = 1; i < reports.size(); ++i) CHECK(reports[i].bytes_sent >= reports[i - 1].bytes_sent);

  ProgressTracker silent({}, std::nullopt);
  CHECK_FALSE(silent.enabled());
  silent.part_progress(1, 1 << 20);
  silent.finish(1 << 20);
}
