// checksum_bench.cpp: throughput of the checksum kernels on one large warm buffer: memcpy as the yardstick,
// every CRC kernel this CPU supports and the dispatched public functions, and Sha1/Sha256/Md5.
// Usage: checksum_bench [--json FILE] [--mib N] [--runs N]. Prints a table; --json writes the same figures.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checksum/crc_dispatch.h"
#include "s3up/checksum.h"

namespace {

struct Result {
  std::string name;    // what was measured: "memcpy", "crc32", "sha256"...
  std::string kernel;  // which implementation: "portable", "pclmul", "dispatched", "openssl"...
  double gb_per_s;     // median over the runs, 1 GB = 1e9 bytes
};

struct Options {
  std::string json_path;
  std::size_t mib = 64;
  int runs = 7;
};

// Runs work once to warm caches and page tables, then `runs` timed times; returns the median GB/s.
double median_gb_per_s(std::size_t bytes, int runs, const std::function<std::uint64_t()>& work) {
  volatile std::uint64_t sink = work();  // volatile: the compiler cannot drop the work being timed
  std::vector<double> rates;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + work();
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    rates.push_back(static_cast<double>(bytes) / seconds.count() / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 < argc && arg == "--json") {
      options.json_path = argv[++i];
    } else if (i + 1 < argc && arg == "--mib") {
      options.mib = std::strtoul(argv[++i], nullptr, 10);
    } else if (i + 1 < argc && arg == "--runs") {
      options.runs = std::atoi(argv[++i]);
    } else {
      return false;
    }
  }
  return options.mib > 0 && options.runs >= 1;
}

bool write_json(const std::string& path, const Options& options, std::string_view selected,
                const std::vector<Result>& results) {
  std::ofstream out(path);
  out << "{\n  \"buffer_bytes\": " << options.mib * 1024 * 1024 << ",\n  \"runs\": " << options.runs
      << ",\n  \"statistic\": \"median\",\n  \"unit\": \"GB/s (1e9 bytes per second)\",\n"
      << "  \"selected_crc_kernel\": \"" << selected << "\",\n  \"results\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.3f", results[i].gb_per_s);
    out << "    {\"name\": \"" << results[i].name << "\", \"kernel\": \"" << results[i].kernel
        << "\", \"gb_per_s\": " << rate << "}" << (i + 1 < results.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  return static_cast<bool>(out.flush());
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) {
    std::fprintf(stderr, "usage: checksum_bench [--json FILE] [--mib N] [--runs N]\n");
    return 2;
  }
  const std::size_t bytes = options.mib * 1024 * 1024;
  std::vector<std::byte> buffer(bytes);
  std::vector<std::byte> copy(bytes);
  std::mt19937_64 rng(1);
  for (auto& b : buffer) b = std::byte(rng() & 0xff);
  const std::span<const std::byte> data(buffer);
  const int runs = options.runs;

  std::vector<Result> results;
  results.push_back({"memcpy", "libc", median_gb_per_s(bytes, runs, [&] {
                       std::memcpy(copy.data(), buffer.data(), bytes);
                       return static_cast<std::uint64_t>(copy[bytes / 2]);
                     })});

  const s3up::detail::CrcKernelSet& selected = s3up::detail::selected_crc_kernel_set();
  for (const auto& set : s3up::detail::crc_kernel_sets()) {
    if (!set.supported()) continue;
    const std::string kernel(set.name);
    results.push_back({"crc32", kernel, median_gb_per_s(bytes, runs, [&] { return set.crc32(0, data); })});
    results.push_back({"crc32c", kernel, median_gb_per_s(bytes, runs, [&] { return set.crc32c(0, data); })});
    results.push_back(
        {"crc64nvme", kernel, median_gb_per_s(bytes, runs, [&] { return set.crc64nvme(0, data); })});
  }
  // The public functions, through the run-time choice: should match the selected kernel above.
  results.push_back(
      {"crc32", "dispatched", median_gb_per_s(bytes, runs, [&] { return s3up::crc32_update(0, data); })});
  results.push_back(
      {"crc32c", "dispatched", median_gb_per_s(bytes, runs, [&] { return s3up::crc32c_update(0, data); })});
  results.push_back({"crc64nvme", "dispatched",
                     median_gb_per_s(bytes, runs, [&] { return s3up::crc64nvme_update(0, data); })});

  const std::pair<s3up::ChecksumAlgorithm, const char*> digests[] = {
      {s3up::ChecksumAlgorithm::sha1, "sha1"},
      {s3up::ChecksumAlgorithm::sha256, "sha256"},
      {s3up::ChecksumAlgorithm::md5, "md5"},
  };
  for (const auto& [algorithm, name] : digests) {
    const std::unique_ptr<s3up::Checksum> digest = s3up::make_checksum(algorithm);
    results.push_back({name, "openssl", median_gb_per_s(bytes, runs, [&] {
                         digest->reset();
                         digest->update(data);
                         return static_cast<std::uint64_t>(digest->finish().bytes()[0]);
                       })});
  }

  std::printf("checksum_bench: %zu MiB buffer, median of %d warm runs, selected CRC kernel: %s\n",
              options.mib, runs, std::string(selected.name).c_str());
  std::printf("%-10s %-16s %10s\n", "what", "kernel", "GB/s");
  for (const Result& r : results)
    std::printf("%-10s %-16s %10.2f\n", r.name.c_str(), r.kernel.c_str(), r.gb_per_s);

  if (!options.json_path.empty() && !write_json(options.json_path, options, selected.name, results)) {
    std::fprintf(stderr, "checksum_bench: cannot write %s\n", options.json_path.c_str());
    return 1;
  }
  return 0;
}
