// encoder_bench.cpp: the body encoders alone, writing into a reused buffer that nothing reads (like curl's
// upload buffer, minus the socket): time, throughput, heap allocations during construction and during fill(),
// peak RSS, and the SHA-256 of the encoded stream, checked against an independent reference encoding.
// Usage: encoder_bench [--json FILE] [--runs N] [--mib N]. Prints tables; --json writes the same figures.
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "allocation_counter.h"
#include "bench_support.h"
#include "reference_encoding.h"
#include "s3up/body.h"
#include "s3up/checksum.h"
#include "s3up/sigv4.h"

namespace {

using s3up::ChecksumAlgorithm;
using s3up::bench::Framing;
using s3up::bench::gib;
using s3up::bench::kib;
using s3up::bench::mib;
using s3up::test::AllocationCounts;
using Clock = std::chrono::steady_clock;

enum class Kind { raw, trailer, signed_chunks, signed_trailer, preread_raw };

struct Case {
  std::string group;
  std::string name;
  Kind kind;
  std::optional<ChecksumAlgorithm> algorithm;
  std::size_t chunk_size;
  std::size_t payload;  // decoded bytes per operation
  std::size_t dest;     // the fill() buffer
};

struct Measured {
  Case spec;
  int ops_per_run = 0;
  int runs = 0;
  double seconds_per_op = 0;          // median over runs of (streaming time of the run / ops)
  double preread_seconds_per_op = 0;  // pre-read part of it (preread_raw only)
  std::uint64_t encoded_bytes = 0;    // per operation
  AllocationCounts construct;         // totals over every measured operation
  AllocationCounts stream;
  std::uint64_t measured_ops = 0;
  std::uint64_t peak_rss_kib = 0;
  std::uint64_t rss_growth_kib = 0;
  std::string stream_sha256;
  bool identical_across_runs = true;
  std::string reference_match;  // "yes", "no"
};

struct Options {
  std::string json_path;
  int runs = 7;
  std::size_t body_mib = 100;
};

// The signing inputs of the signed cases: AWS's documented example key, date and seed (reference §4.3).
const s3up::bench::ReferenceSigning signing{
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524T000000Z", "us-east-1",
    "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"};

s3up::sigv4::ChunkSigner make_signer() {
  s3up::sigv4::CredentialScope scope{signing.amz_date.substr(0, 8), signing.region};
  s3up::sigv4::Signature seed{};
  std::copy(signing.seed_signature.begin(), signing.seed_signature.end(), seed.begin());
  return s3up::sigv4::ChunkSigner(s3up::sigv4::derive_signing_key(signing.secret_access_key, scope),
                                  signing.amz_date, scope, seed);
}

std::unique_ptr<s3up::BodyEncoder> make_encoder(const Case& spec, s3up::BodySource& source) {
  auto checksum = [&] { return spec.algorithm ? s3up::make_checksum(*spec.algorithm) : nullptr; };
  switch (spec.kind) {
    case Kind::trailer:
      return std::make_unique<s3up::TrailerEncoder>(source, checksum(), spec.chunk_size);
    case Kind::signed_chunks:
      return std::make_unique<s3up::SignedChunkEncoder>(source, make_signer(), nullptr, spec.chunk_size);
    case Kind::signed_trailer:
      return std::make_unique<s3up::SignedChunkEncoder>(source, make_signer(), checksum(), spec.chunk_size);
    case Kind::raw:
    case Kind::preread_raw:
      return std::make_unique<s3up::RawBodyEncoder>(source);
  }
  return nullptr;
}

Framing framing_of(Kind kind) {
  switch (kind) {
    case Kind::trailer:
      return Framing::unsigned_trailer;
    case Kind::signed_chunks:
      return Framing::signed_chunks;
    case Kind::signed_trailer:
      return Framing::signed_trailer;
    case Kind::raw:
    case Kind::preread_raw:
      break;
  }
  return Framing::raw;
}

struct OpResult {
  double stream_seconds = 0;
  double preread_seconds = 0;
  AllocationCounts construct;
  AllocationCounts stream;
  std::uint64_t produced = 0;
  std::uint64_t declared = 0;
  std::string header_checksum;  // preread_raw: the x-amz-checksum-crc32 value the pre-read computed
};

// One operation: construct the encoder (counted apart), then fill() until it returns 0. Only fill() (and
// the pre-read) are timed and counted; hashing the output happens between fills, outside both.
OpResult run_op(const Case& spec, std::span<const std::byte> payload, std::span<std::byte> dest,
                s3up::bench::StreamHash& hash) {
  using s3up::test::allocation_counts;
  using s3up::test::set_allocation_counting;
  OpResult result;
  s3up::MemorySource source(payload);
  std::unique_ptr<s3up::BodyEncoder> encoder;
  if (spec.kind == Kind::preread_raw) {
    AllocationCounts before = allocation_counts();
    set_allocation_counting(true);
    auto preread = std::make_unique<s3up::HeaderChecksumPreread>();
    set_allocation_counting(false);
    result.construct = allocation_counts() - before;

    before = allocation_counts();
    const auto start = Clock::now();
    set_allocation_counting(true);
    const s3up::PrereadDigests digests = preread->run(source, spec.algorithm, false, false);
    set_allocation_counting(false);
    result.preread_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    result.stream = allocation_counts() - before;
    result.header_checksum = digests.checksum ? digests.checksum->base64() : "";
  }
  AllocationCounts before = allocation_counts();
  set_allocation_counting(true);
  encoder = make_encoder(spec, source);
  set_allocation_counting(false);
  result.construct = result.construct + (allocation_counts() - before);
  result.declared = encoder->encoded_length();

  before = allocation_counts();
  for (;;) {
    const auto start = Clock::now();
    set_allocation_counting(true);
    const std::size_t n = encoder->fill(dest);
    set_allocation_counting(false);
    result.stream_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    if (n == 0) break;
    hash.update(dest.first(n));
    result.produced += n;
  }
  result.stream = result.stream + (allocation_counts() - before);
  result.stream_seconds += result.preread_seconds;
  return result;
}

Measured measure(const Case& spec, std::span<const std::byte> body, int runs) {
  Measured m;
  m.spec = spec;
  m.runs = runs;
  const std::span<const std::byte> payload = body.first(spec.payload);
  // Enough operations per run to stream at least 64 MiB, so that small payloads are timed over many.
  m.ops_per_run = static_cast<int>(std::max<std::size_t>(1, 64 * mib / spec.payload));

  // The reference first, and freed, so that it is not in the peak RSS of the case.
  std::string reference_sha256;
  std::string reference_header;
  {
    const std::string reference = s3up::bench::reference_encoding(payload, framing_of(spec.kind),
                                                                  spec.algorithm, spec.chunk_size, signing);
    reference_sha256 = s3up::bench::sha256_hex(reference);
    if (spec.kind == Kind::preread_raw)
      reference_header = s3up::bench::reference_checksum_base64(*spec.algorithm, payload);
  }

  std::vector<std::byte> dest(spec.dest);
  s3up::bench::StreamHash hash;
  const std::uint64_t rss_start = s3up::bench::proc_status_kib("VmRSS");
  s3up::bench::reset_peak_rss();
  run_op(spec, payload, dest, hash);  // warm-up: page faults, caches, lazy library set-up
  hash.reset();

  std::vector<double> per_op;
  std::vector<double> preread_per_op;
  bool all_complete = true;
  bool header_ok = true;
  for (int run = 0; run < runs; ++run) {
    double seconds = 0;
    double preread = 0;
    for (int op = 0; op < m.ops_per_run; ++op) {
      const OpResult r = run_op(spec, payload, dest, hash);
      const std::string digest = hash.finish_hex();
      seconds += r.stream_seconds;
      preread += r.preread_seconds;
      m.construct = m.construct + r.construct;
      m.stream = m.stream + r.stream;
      m.encoded_bytes = r.produced;
      all_complete = all_complete && r.produced == r.declared;
      if (spec.kind == Kind::preread_raw) header_ok = header_ok && r.header_checksum == reference_header;
      if (m.stream_sha256.empty()) m.stream_sha256 = digest;
      m.identical_across_runs = m.identical_across_runs && digest == m.stream_sha256;
    }
    per_op.push_back(seconds / m.ops_per_run);
    preread_per_op.push_back(preread / m.ops_per_run);
  }
  m.measured_ops = static_cast<std::uint64_t>(runs) * m.ops_per_run;
  m.seconds_per_op = s3up::bench::median(per_op);
  m.preread_seconds_per_op = s3up::bench::median(preread_per_op);
  m.peak_rss_kib = s3up::bench::proc_status_kib("VmHWM");
  m.rss_growth_kib = m.peak_rss_kib > rss_start ? m.peak_rss_kib - rss_start : 0;
  m.reference_match = (all_complete && header_ok && m.stream_sha256 == reference_sha256) ? "yes" : "no";
  return m;
}

// An anonymous read-only mapping: reads see the shared zero page, so a 1 GiB source costs no RSS.
class ZeroPages {
 public:
  explicit ZeroPages(std::size_t size) : size_(size) {
    data_ = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (data_ == MAP_FAILED) throw std::runtime_error("mmap failed");
  }
  ~ZeroPages() { munmap(data_, size_); }
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;
  std::span<const std::byte> bytes() const { return {static_cast<const std::byte*>(data_), size_}; }

 private:
  void* data_;
  std::size_t size_;
};

struct WholeEncode {
  std::string name;
  Case spec;
  AllocationCounts small;  // 1 MiB body
  AllocationCounts large;  // 1 GiB body
};

// Everything one upload's body costs: make_checksum, the signer, the encoder (and the pre-read), all fills.
AllocationCounts whole_encode_allocations(const Case& spec, std::span<const std::byte> payload) {
  std::vector<std::byte> dest(spec.dest);
  s3up::MemorySource source(payload);
  s3up::test::CountingScope counting;
  if (spec.kind == Kind::preread_raw) {
    s3up::HeaderChecksumPreread preread;
    preread.run(source, spec.algorithm, false, false);
  }
  std::unique_ptr<s3up::BodyEncoder> encoder = make_encoder(spec, source);
  while (encoder->fill(dest) != 0) {
  }
  encoder.reset();
  return counting.counts();
}

std::string kind_name(Kind kind) {
  switch (kind) {
    case Kind::raw:
      return "raw";
    case Kind::trailer:
      return "unsigned-trailer";
    case Kind::signed_chunks:
      return "signed";
    case Kind::signed_trailer:
      return "signed-trailer";
    case Kind::preread_raw:
      return "preread+raw";
  }
  return "";
}

std::string short_size(std::uint64_t bytes) {
  std::string text = s3up::bench::size_text(bytes);
  const std::size_t space = text.find(' ');
  if (space != std::string::npos) text.erase(space, 1);
  if (text.ends_with("iB")) text.erase(text.size() - 2);  // "64K", "1M", "100M"
  return text;
}

std::string per_op(std::uint64_t total, std::uint64_t ops) {
  char text[32];
  if (total % ops == 0) {
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(total / ops));
  } else {
    std::snprintf(text, sizeof text, "%.2f", static_cast<double>(total) / static_cast<double>(ops));
  }
  return text;
}

void print_table(const std::vector<Measured>& results) {
  std::printf("%-34s %5s %5s %7s %5s %9s %7s %9s %6s %8s %9s %8s %7s %-16s %4s %3s\n", "case", "chunk",
              "dest", "payload", "ops", "ms/op", "GB/s", "ops/s", "ctor", "stream", "stream", "peakRSS",
              "+RSS", "stream sha256", "same", "ref");
  std::printf("%-34s %5s %5s %7s %5s %9s %7s %9s %6s %8s %9s %8s %7s %-16s %4s %3s\n", "", "", "", "", "/run",
              "median", "", "", "allocs", "allocs", "bytes", "MiB", "KiB", "(first 16 hex)", "runs", "ok");
  std::string group;
  for (const Measured& m : results) {
    if (m.spec.group != group) {
      group = m.spec.group;
      std::printf("-- %s\n", group.c_str());
    }
    const double gbps = static_cast<double>(m.spec.payload) / m.seconds_per_op / 1e9;
    std::printf(
        "%-34s %5s %5s %7s %5d %9.3f %7.2f %9.1f %6s %8s %9s %8.1f %7llu %-16s %4s %3s\n",
        m.spec.name.c_str(),
        m.spec.kind == Kind::raw || m.spec.kind == Kind::preread_raw ? "-"
                                                                     : short_size(m.spec.chunk_size).c_str(),
        short_size(m.spec.dest).c_str(), short_size(m.spec.payload).c_str(), m.ops_per_run,
        m.seconds_per_op * 1e3, gbps, 1.0 / m.seconds_per_op,
        per_op(m.construct.calls(), m.measured_ops).c_str(), per_op(m.stream.calls(), m.measured_ops).c_str(),
        per_op(m.stream.bytes, m.measured_ops).c_str(), static_cast<double>(m.peak_rss_kib) / 1024.0,
        static_cast<unsigned long long>(m.rss_growth_kib), m.stream_sha256.substr(0, 16).c_str(),
        m.identical_across_runs ? "yes" : "NO", m.reference_match.c_str());
    if (m.spec.kind == Kind::preread_raw) {
      std::printf("%-34s pre-read %.3f ms (%.2f GB/s) + raw streaming %.3f ms (%.2f GB/s)\n", "",
                  m.preread_seconds_per_op * 1e3,
                  static_cast<double>(m.spec.payload) / m.preread_seconds_per_op / 1e9,
                  (m.seconds_per_op - m.preread_seconds_per_op) * 1e3,
                  static_cast<double>(m.spec.payload) / (m.seconds_per_op - m.preread_seconds_per_op) / 1e9);
    }
  }
}

std::string counts_json(const AllocationCounts& c) {
  return "{\"allocations\": " + std::to_string(c.allocations) +
         ", \"reallocations\": " + std::to_string(c.reallocations) +
         ", \"bytes\": " + std::to_string(c.bytes) + ", \"frees\": " + std::to_string(c.frees) + "}";
}

bool write_json(const std::string& path, const Options& options, bool peak_reset,
                const std::vector<Measured>& results, const std::vector<WholeEncode>& whole) {
  using s3up::bench::json_number;
  using s3up::bench::json_string;
  std::ofstream out(path);
  out << "{\n  \"benchmark\": \"encoder_bench\",\n  \"runs\": " << options.runs
      << ",\n  \"statistic\": \"median\",\n  \"gb\": \"1e9 bytes\",\n  \"peak_rss_reset_per_case\": "
      << (peak_reset ? "true" : "false") << ",\n  \"cases\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Measured& m = results[i];
    out << "    {\"group\": " << json_string(m.spec.group) << ", \"name\": " << json_string(m.spec.name)
        << ", \"mode\": " << json_string(kind_name(m.spec.kind)) << ", \"algorithm\": "
        << (m.spec.algorithm ? json_string(s3up::algorithm_name(*m.spec.algorithm)) : "null")
        << ", \"chunk_size\": " << m.spec.chunk_size << ", \"dest_buffer\": " << m.spec.dest
        << ", \"payload_bytes\": " << m.spec.payload << ", \"encoded_bytes\": " << m.encoded_bytes
        << ", \"ops_per_run\": " << m.ops_per_run << ", \"runs\": " << m.runs
        << ", \"seconds_per_op\": " << json_number(m.seconds_per_op)
        << ", \"preread_seconds_per_op\": " << json_number(m.preread_seconds_per_op)
        << ", \"gb_per_s\": " << json_number(static_cast<double>(m.spec.payload) / m.seconds_per_op / 1e9)
        << ", \"ops_per_s\": " << json_number(1.0 / m.seconds_per_op)
        << ", \"measured_ops\": " << m.measured_ops
        << ", \"construction_total\": " << counts_json(m.construct)
        << ", \"streaming_total\": " << counts_json(m.stream) << ", \"peak_rss_kib\": " << m.peak_rss_kib
        << ", \"rss_growth_kib\": " << m.rss_growth_kib
        << ", \"stream_sha256\": " << json_string(m.stream_sha256)
        << ", \"identical_across_runs\": " << (m.identical_across_runs ? "true" : "false")
        << ", \"reference_match\": " << (m.reference_match == "yes" ? "true" : "false") << "}"
        << (i + 1 < results.size() ? "," : "") << "\n";
  }
  out << "  ],\n  \"whole_encode_allocations\": [\n";
  for (std::size_t i = 0; i < whole.size(); ++i) {
    out << "    {\"name\": " << json_string(whole[i].name) << ", \"1MiB\": " << counts_json(whole[i].small)
        << ", \"1GiB\": " << counts_json(whole[i].large) << "}" << (i + 1 < whole.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  return static_cast<bool>(out.flush());
}

bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (i + 1 < argc && arg == "--json") {
      options.json_path = argv[++i];
    } else if (i + 1 < argc && arg == "--runs") {
      options.runs = std::atoi(argv[++i]);
    } else if (i + 1 < argc && arg == "--mib") {
      options.body_mib = std::strtoul(argv[++i], nullptr, 10);
    } else {
      return false;
    }
  }
  return options.runs >= 1 && options.body_mib >= 72;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) {
    std::fprintf(stderr, "usage: encoder_bench [--json FILE] [--runs N (default 7)] [--mib N (>= 72)]\n");
    return 2;
  }
  if (const std::string failure = s3up::bench::reference_self_test(); !failure.empty()) {
    std::fprintf(stderr, "encoder_bench: the reference encoder fails its self-test: %s\n", failure.c_str());
    return 1;
  }
  const std::size_t body_size = options.body_mib * mib;
  std::vector<std::byte> body(body_size);
  std::mt19937_64 rng(20240601);
  for (std::size_t i = 0; i + 8 <= body.size(); i += 8) {
    const std::uint64_t word = rng();
    std::memcpy(body.data() + i, &word, 8);
  }

  const std::size_t dest = 256 * kib;
  const auto crc32 = ChecksumAlgorithm::crc32;
  std::vector<Case> cases;
  const std::string trailer_group = "unsigned trailer, CRC32, " + s3up::bench::size_text(body_size);
  for (std::size_t chunk : {16 * kib, 64 * kib, 1 * mib})
    cases.push_back({trailer_group, "trailer CRC32 chunk " + short_size(chunk), Kind::trailer, crc32, chunk,
                     body_size, dest});
  const std::string algorithm_group = "unsigned trailer, every algorithm, 64 KiB chunks";
  for (ChecksumAlgorithm algorithm :
       {ChecksumAlgorithm::crc32, ChecksumAlgorithm::crc32c, ChecksumAlgorithm::crc64nvme,
        ChecksumAlgorithm::sha1, ChecksumAlgorithm::sha256})
    cases.push_back({algorithm_group, "trailer " + std::string(s3up::algorithm_name(algorithm)),
                     Kind::trailer, algorithm, 64 * kib, body_size, dest});
  const std::string signed_group = "signed streaming, 64 KiB chunks";
  for (std::size_t payload : {64 * kib, 1 * mib, 16 * mib}) {
    cases.push_back({signed_group, "signed " + short_size(payload), Kind::signed_chunks, std::nullopt,
                     64 * kib, payload, dest});
    cases.push_back({signed_group, "signed-trailer CRC32 " + short_size(payload), Kind::signed_trailer, crc32,
                     64 * kib, payload, dest});
    cases.push_back({signed_group, "unsigned-trailer CRC32 " + short_size(payload), Kind::trailer, crc32,
                     64 * kib, payload, dest});
  }
  const std::string raw_group = "header path: pre-read then raw body";
  cases.push_back({raw_group, "pre-read CRC32 + raw 72M", Kind::preread_raw, crc32, 0, 72 * mib, dest});
  cases.push_back(
      {raw_group, "raw (no checksum) " + short_size(body_size), Kind::raw, std::nullopt, 0, body_size, dest});
  const std::string dest_group = "destination buffer size (curl's upload buffer)";
  for (std::size_t size : {64 * kib, 256 * kib, 1 * mib}) {
    cases.push_back({dest_group, "trailer CRC32 64K, dest " + short_size(size), Kind::trailer, crc32,
                     64 * kib, body_size, size});
    cases.push_back({dest_group, "signed-trailer CRC32 16M, dest " + short_size(size), Kind::signed_trailer,
                     crc32, 64 * kib, 16 * mib, size});
    cases.push_back({dest_group, "raw " + short_size(body_size) + ", dest " + short_size(size), Kind::raw,
                     std::nullopt, 0, body_size, size});
  }

  const std::string load_at_start = s3up::bench::load_average();
  const bool peak_reset = s3up::bench::reset_peak_rss();
  std::vector<Measured> results;
  for (const Case& spec : cases) results.push_back(measure(spec, body, options.runs));

  std::vector<WholeEncode> whole = {
      {"unsigned-trailer CRC32, 64 KiB chunks", {"", "", Kind::trailer, crc32, 64 * kib, 0, dest}, {}, {}},
      {"signed-trailer CRC32, 64 KiB chunks",
       {"", "", Kind::signed_trailer, crc32, 64 * kib, 0, dest},
       {},
       {}},
      {"signed, 64 KiB chunks", {"", "", Kind::signed_chunks, std::nullopt, 64 * kib, 0, dest}, {}, {}},
      {"pre-read CRC32 + raw", {"", "", Kind::preread_raw, crc32, 0, 0, dest}, {}, {}},
  };
  {
    const ZeroPages large(gib);
    for (WholeEncode& w : whole) {
      w.small = whole_encode_allocations(w.spec, std::span(body).first(mib));
      w.large = whole_encode_allocations(w.spec, large.bytes());
    }
  }

  std::printf(
      "encoder_bench: median of %d runs after a warm-up; dest = the reused fill() buffer; GB = 1e9 bytes\n"
      "load average at start: %s\n",
      options.runs, load_at_start.c_str());
  std::printf(
      "ctor allocs = heap allocations (malloc/calloc/realloc/aligned, all libraries) constructing one\n"
      "encoder; stream allocs/bytes = during fill() (and the pre-read), per operation. peak RSS = VmHWM,\n"
      "reset before each case%s; it includes the %zu MiB source body. +RSS = VmHWM - VmRSS at case start.\n"
      "same runs = the stream's SHA-256 was identical in every run; ref ok = equal to the independent\n"
      "reference encoding (and the pre-read's header value to zlib's CRC32).\n\n",
      peak_reset ? "" : " (NOT possible here: figures are cumulative)", options.body_mib);
  print_table(results);
  std::printf("\nwhole encode (construction + pre-read + every fill), heap allocations (bytes):\n");
  std::printf("%-40s %22s %22s %6s\n", "encoder", "1 MiB body", "1 GiB body", "equal");
  for (const WholeEncode& w : whole) {
    const std::string small = std::to_string(w.small.calls()) + " (" + std::to_string(w.small.bytes) + " B)";
    const std::string large = std::to_string(w.large.calls()) + " (" + std::to_string(w.large.bytes) + " B)";
    std::printf("%-40s %22s %22s %6s\n", w.name.c_str(), small.c_str(), large.c_str(),
                w.small.calls() == w.large.calls() ? "yes" : "NO");
  }

  if (!options.json_path.empty() && !write_json(options.json_path, options, peak_reset, results, whole)) {
    std::fprintf(stderr, "encoder_bench: cannot write %s\n", options.json_path.c_str());
    return 1;
  }
  bool all_ok = true;
  for (const Measured& m : results) all_ok = all_ok && m.identical_across_runs && m.reference_match == "yes";
  if (!all_ok) std::fprintf(stderr, "encoder_bench: some encoded streams differ from the reference\n");
  return all_ok ? 0 : 1;
}
