// bench/alloc_report_preload.cpp: with testing/allocation_counter.cpp, an LD_PRELOAD library that counts
// every allocation of a program it is loaded into (the `s3up cp` process) from load to exit, and writes the
// counts to the file named by S3UP_BENCH_ALLOC_OUT:
// "allocations N reallocations N bytes N frees N vm_hwm_kib N", the last being the peak RSS (VmHWM) at exit.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "allocation_counter.h"

namespace {

__attribute__((constructor)) void start_counting() {
  s3up::test::set_allocation_counting(true);
}

__attribute__((destructor)) void report_counts() {
  s3up::test::set_allocation_counting(false);
  const char* path = std::getenv("S3UP_BENCH_ALLOC_OUT");
  if (path == nullptr) return;
  const s3up::test::AllocationCounts counts = s3up::test::allocation_counts();
  unsigned long long peak_kib = 0;
  if (std::FILE* status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, status) != nullptr) {
      if (std::strncmp(line, "VmHWM:", 6) == 0) peak_kib = std::strtoull(line + 6, nullptr, 10);
    }
    std::fclose(status);
  }
  if (std::FILE* out = std::fopen(path, "w")) {
    std::fprintf(out, "allocations %llu reallocations %llu bytes %llu frees %llu vm_hwm_kib %llu\n",
                 static_cast<unsigned long long>(counts.allocations),
                 static_cast<unsigned long long>(counts.reallocations),
                 static_cast<unsigned long long>(counts.bytes), static_cast<unsigned long long>(counts.frees),
                 peak_kib);
    std::fclose(out);
  }
}

}  // namespace
