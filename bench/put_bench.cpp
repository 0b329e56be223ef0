// put_bench.cpp: end to end, against the mock server (`s3up serve`, child processes) on loopback. First what
// the server can ingest: the cheapest possible sender (ingest_put.h) into the server and into a discarding
// socket reader (the loopback ceiling). Then a 1 GiB file uploaded by s3up (put_object in this process, and
// the real `s3up cp` process, by one PUT and multipart) over HTTP and HTTPS, interleaved with a raw PUT of
// the same bytes by libcurl at its default settings, as `curl -T` sends it, and by the curl command itself
// (a process, like `s3up cp`). Then put_object at each size of curl's upload buffer
// (ClientConfig::upload_buffer_size: the measurement that picked its default), and upload() at each size of
// the parts' buffer (UploadOptions::part_upload_buffer_size, likewise); the scaling of the client's
// peak RSS and allocation count with the object size (each size in a fresh process: this program
// re-executed with --child-case); and the peak RSS and allocation count of the real `s3up cp` process.
// Usage: put_bench [--json FILE] [--runs N] [--tmpdir DIR] [--max-gib N]. Prints tables; --json writes them.
#include <curl/curl.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "allocation_counter.h"
#include "bench_support.h"
#include "ingest_put.h"
#include "raw_curl_put.h"
#include "s3up/body.h"
#include "s3up/checksum.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"
#include "s3up/transfer.h"
#include "server_process.h"

namespace {

using s3up::bench::gib;
using s3up::bench::mib;
using Clock = std::chrono::steady_clock;

constexpr const char* bucket = "bench";
constexpr const char* region = "us-east-1";

struct Options {
  std::string json_path;
  int runs = 5;
  std::string tmpdir = "/tmp";
  std::uint64_t max_gib = 4;  // largest size of the scaling and `s3up cp` cases
};

using s3up::bench::FileDescriptor;

s3up::ClientConfig client_config(const std::string& url, s3up::ChecksumLocation location,
                                 const std::string& ca_bundle) {
  s3up::ClientConfig config;
  config.endpoint_url = url;
  config.region = region;
  config.credentials =
      s3up::sigv4::Credentials{s3up::mock::default_access_key, s3up::mock::default_secret_key, ""};
  config.addressing = s3up::Addressing::path_style;
  config.checksum_algorithm = s3up::ChecksumAlgorithm::crc32;
  config.checksum_location = location;
  config.checksum_calculation = s3up::ChecksumCalculation::when_supported;
  config.ca_bundle = ca_bundle;
  config.logger = nullptr;
  return config;
}

// One put_object of the file with a fresh Client (a fresh connection, as a new `s3up cp` has). Throws on
// any failure, so a figure is never printed for an upload that did not complete.
void s3up_put(const std::string& url, s3up::ChecksumLocation location, const std::string& ca_bundle,
              const std::string& file, const std::string& key,
              std::size_t upload_buffer_size = s3up::default_upload_buffer_size) {
  s3up::ClientConfig config = client_config(url, location, ca_bundle);
  config.upload_buffer_size = upload_buffer_size;
  s3up::Client client(config);
  s3up::FileSource source(file);
  auto result = client.put_object(bucket, key, source);
  if (!result) throw std::runtime_error("put_object failed: " + result.error().to_string());
  if (result->checksum_returned.empty() || result->checksum_returned != result->checksum_sent)
    throw std::runtime_error("the server did not echo the checksum sent");
}

void delete_object(const std::string& url, const std::string& ca_bundle, const std::string& key) {
  s3up::Client client(client_config(url, s3up::ChecksumLocation::none, ca_bundle));
  auto result = client.delete_object(bucket, key);
  if (!result) throw std::runtime_error("delete_object failed: " + result.error().to_string());
}

// The environment `s3up cp` reads its credentials from.
std::vector<std::string> cp_environment() {
  return {"AWS_ACCESS_KEY_ID=" + std::string(s3up::mock::default_access_key),
          "AWS_SECRET_ACCESS_KEY=" + std::string(s3up::mock::default_secret_key)};
}

// multipart: `s3up cp`'s defaults (multipart from 16 MiB: 8 MiB parts, 4 in flight); else one PutObject
// (--multipart-threshold above every size here).
std::vector<std::string> cp_argv(const std::string& file, const std::string& key, const std::string& url,
                                 const std::string& location, bool multipart) {
  std::vector<std::string> argv = {S3UP_CLI_PATH, "cp", file, std::string("s3://") + bucket + "/" + key};
  for (const char* option : {"--endpoint-url", url.c_str(), "--region", region, "--checksum-algorithm",
                             "CRC32", "--checksum-location", location.c_str(), "--quiet"})
    argv.emplace_back(option);
  if (!multipart) argv.insert(argv.end(), {"--multipart-threshold", "5GiB"});
  return argv;
}

// Object keys and file names in the size-dependent cases have the size in ten digits, so that names differ
// only in their digits: a name's length changes the allocation count (a component of a std::filesystem::path
// longer than 15 characters gets its own heap string), which must not pass for an effect of the size.
std::string ten_digits(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%010llu", static_cast<unsigned long long>(value));
  return text;
}

// ------------------------------------------------------------------------------------------------------
// --child-case: one put_object in a fresh process; prints "key=value ..." on one line for the parent.

int child_main(const std::map<std::string, std::string>& args) {
  // Counting from the start of main: the process's whole allocation count, not only put_object's.
  s3up::test::set_allocation_counting(true);
  const std::string url = args.at("url");
  const std::string file = args.at("file");
  const std::string key = args.at("key");
  const s3up::ChecksumLocation location = *s3up::parse_checksum_location(args.at("location"));
  const auto start = Clock::now();
  s3up::test::AllocationCounts in_put;
  {
    const s3up::test::AllocationCounts before = s3up::test::allocation_counts();
    s3up_put(url, location, "", file, key);
    in_put = s3up::test::allocation_counts() - before;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const s3up::test::AllocationCounts total = s3up::test::allocation_counts();
  s3up::test::set_allocation_counting(false);
  const std::uint64_t hwm = s3up::bench::proc_status_kib("VmHWM");
  delete_object(url, "", key);
  std::printf(
      "seconds=%.6f vm_hwm_kib=%llu total_allocations=%llu total_bytes=%llu put_allocations=%llu "
      "put_bytes=%llu\n",
      seconds, static_cast<unsigned long long>(hwm), static_cast<unsigned long long>(total.calls()),
      static_cast<unsigned long long>(total.bytes), static_cast<unsigned long long>(in_put.calls()),
      static_cast<unsigned long long>(in_put.bytes));
  return 0;
}

std::map<std::string, std::string> parse_fields(const std::string& line) {
  std::map<std::string, std::string> fields;
  std::istringstream in(line);
  std::string word;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq != std::string::npos) fields[word.substr(0, eq)] = word.substr(eq + 1);
  }
  return fields;
}

// ------------------------------------------------------------------------------------------------------
// The parent.

// A receiver of the server-ingest section.
struct Ingest {
  std::string name;
  bool server = false;    // false: the discarding sink
  bool md5_etag = false;  // the server computes the MD5 ETag
  std::vector<double> seconds;
  double median = 0;
};

enum class Sender { raw_curl, curl_cli, put_object, s3up_cp, s3up_cp_multipart };

// The mock servers of the end-to-end cases. Multipart uploads have their own: the server keeps the mappings
// of deleted objects for reuse, within a 2 GiB budget, and the 128 part buffers of a multipart upload would
// push out the 1 GiB one that the single-PUT cases reuse; on this VM a page freed for a few seconds goes back
// to the hypervisor (virtio-balloon free page reporting), and touching it again is slow.
enum class Target { http, http_multipart, https, http_md5 };

struct Timed {
  std::string name;
  Target target = Target::http;
  Sender sender = Sender::raw_curl;
  std::string location;  // put_object: "trailer" or "header"; s3up cp: "trailer" or "auto"
  std::vector<double> seconds;
  double median = 0;

  std::string scheme() const { return target == Target::https ? "https" : "http"; }
};

// One size of curl's upload buffer in the sweep: wall and CPU seconds of this thread, which runs the whole
// transfer (curl_easy_perform, the read callback and the encoder).
struct BufferRun {
  std::size_t upload_buffer_size = 0;
  std::vector<double> seconds;
  std::vector<double> cpu_seconds;
  double median = 0;
  double cpu_median = 0;
};

// User + system CPU seconds of this thread (RUSAGE_THREAD) or of the whole process (RUSAGE_SELF).
double cpu_seconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// One size of the parts' upload buffer in the multipart sweep, for one checksum location.
struct PartBufferRun {
  std::string location;  // "trailer" or "header"
  BufferRun run;         // cpu_seconds: the whole process's (every part thread)
};

struct Scaling {
  std::uint64_t bytes = 0;
  double seconds = 0;
  long max_rss_kib = 0;          // wait4 ru_maxrss through maxrss_exec
  std::uint64_t vm_hwm_kib = 0;  // VmHWM read by the child as it ends
  std::uint64_t total_allocations = 0;
  std::uint64_t total_bytes = 0;
  std::uint64_t put_allocations = 0;
  std::uint64_t put_bytes = 0;
};

struct CliRun {
  std::string location;
  bool multipart = false;
  std::uint64_t bytes = 0;
  double seconds = 0;
  long max_rss_kib = 0;           // wait4 ru_maxrss through maxrss_exec
  std::uint64_t vm_hwm_kib = 0;   // VmHWM at exit, from the LD_PRELOAD library
  std::uint64_t allocations = 0;  // from the LD_PRELOAD counter, load to exit
  std::uint64_t allocated_bytes = 0;
};

void write_test_file(const std::string& path, std::uint64_t size) {
  std::ofstream out(path, std::ios::binary);
  std::vector<char> block(mib);
  std::mt19937_64 rng(7);
  for (std::uint64_t written = 0; written < size; written += block.size()) {
    for (std::size_t i = 0; i + 8 <= block.size(); i += 8) {
      const std::uint64_t word = rng();
      std::memcpy(block.data() + i, &word, 8);
    }
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
  }
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

void make_sparse_file(const std::string& path, std::uint64_t size) {
  const FileDescriptor fd(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0 || ftruncate(fd.get(), static_cast<off_t>(size)) != 0)
    throw std::runtime_error("cannot make " + path);
}

// Reads the file once, so that every timed case starts from the page cache, and returns its CRC32 (s3up's
// own Crc32: the value the ingest sender declares in advance, as a client with a precomputed digest would).
s3up::Digest read_file_crc32(const std::string& path) {
  const FileDescriptor fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw std::runtime_error("cannot open " + path);
  std::vector<std::byte> block(mib);
  s3up::Crc32 crc;
  ssize_t n;
  while ((n = read(fd.get(), block.data(), block.size())) > 0)
    crc.update(std::span(block.data(), static_cast<std::size_t>(n)));
  if (n < 0) throw std::runtime_error("cannot read " + path);
  return crc.finish();
}

// Runs argv under maxrss_exec, so that ru_maxrss is the child's own (see maxrss_exec.cpp).
struct MeasuredChild {
  s3up::bench::ChildRun run;
  long max_rss_kib = 0;
};
MeasuredChild run_measured(const std::filesystem::path& dir, std::vector<std::string> argv,
                           const std::vector<std::string>& environment) {
  const std::string report = dir / "maxrss-report.txt";
  argv.insert(argv.begin(), {S3UP_MAXRSS_EXEC_PATH, report});
  MeasuredChild measured;
  measured.run = s3up::bench::run_child(argv, environment);
  std::ifstream in(report);
  std::string line;
  std::getline(in, line);
  auto fields = parse_fields(line);
  if (fields.count("ru_maxrss_kib")) measured.max_rss_kib = std::stol(fields["ru_maxrss_kib"]);
  return measured;
}

// The sizes of a buffer sweep, with the default among them, in order.
std::vector<std::size_t> with_default(std::vector<std::size_t> sizes, std::size_t default_size) {
  if (std::find(sizes.begin(), sizes.end(), default_size) == sizes.end())
    sizes.insert(std::upper_bound(sizes.begin(), sizes.end(), default_size), default_size);
  return sizes;
}

// The curl command on PATH (the `curl -T` of the reference figures); empty when there is none.
std::string curl_command() {
  const char* path = std::getenv("PATH");
  std::string_view directories = path != nullptr ? path : "/usr/bin:/bin";
  while (!directories.empty()) {
    const std::size_t colon = directories.find(':');
    const std::filesystem::path candidate = std::filesystem::path(directories.substr(0, colon)) / "curl";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    directories.remove_prefix(colon == std::string_view::npos ? directories.size() : colon + 1);
  }
  return "";
}

// `curl -T FILE` as a user would type it against the mock server: SigV4 by curl's --aws-sigv4,
// UNSIGNED-PAYLOAD (curl 7.88 does not add x-amz-content-sha256 itself), no checksum; -q: no ~/.curlrc.
// Prints the status.
std::vector<std::string> curl_argv(const std::string& curl, const std::string& file, const std::string& url,
                                   const std::string& key) {
  return {curl,
          "-q",
          "-sS",
          "--noproxy",
          "*",
          "-o",
          "/dev/null",
          "-w",
          "%{http_code}",
          "-T",
          file,
          "-H",
          "x-amz-content-sha256: UNSIGNED-PAYLOAD",
          "--aws-sigv4",
          std::string("aws:amz:") + region + ":s3",
          "--user",
          std::string(s3up::mock::default_access_key) + ":" + s3up::mock::default_secret_key,
          url + "/" + bucket + "/" + key};
}

double mb_per_s(std::uint64_t bytes, double seconds) {
  return static_cast<double>(bytes) / seconds / 1e6;
}

std::uint16_t url_port(const std::string& url) {
  return static_cast<std::uint16_t>(std::stoul(url.substr(url.rfind(':') + 1)));
}

std::string runs_text(const std::vector<double>& seconds) {
  std::string text;
  for (double s : seconds) {
    char number[16];
    std::snprintf(number, sizeof number, "%.3f ", s);
    text += number;
  }
  return text;
}

std::string seconds_json(const std::vector<double>& seconds) {
  std::string text = "[";
  for (std::size_t i = 0; i < seconds.size(); ++i)
    text += (i ? ", " : "") + s3up::bench::json_number(seconds[i]);
  return text + "]";
}

bool parse_options(int argc, char** argv, Options& options, std::map<std::string, std::string>& child) {
  bool child_case = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--child-case") {
      child_case = true;
    } else if (i + 1 < argc && arg == "--json") {
      options.json_path = argv[++i];
    } else if (i + 1 < argc && arg == "--runs") {
      options.runs = std::atoi(argv[++i]);
    } else if (i + 1 < argc && arg == "--tmpdir") {
      options.tmpdir = argv[++i];
    } else if (i + 1 < argc && arg == "--max-gib") {
      options.max_gib = std::strtoull(argv[++i], nullptr, 10);
    } else if (child_case && i + 1 < argc && arg.starts_with("--")) {
      child[std::string(arg.substr(2))] = argv[++i];
    } else {
      return false;
    }
  }
  if (child_case) child["child-case"] = "yes";
  return options.runs >= 1 && options.max_gib >= 1;
}

std::string scaling_json(const Scaling& s) {
  return "{\"bytes\": " + std::to_string(s.bytes) + ", \"seconds\": " + s3up::bench::json_number(s.seconds) +
         ", \"ru_maxrss_kib\": " + std::to_string(s.max_rss_kib) +
         ", \"vm_hwm_kib\": " + std::to_string(s.vm_hwm_kib) +
         ", \"process_allocations\": " + std::to_string(s.total_allocations) +
         ", \"process_allocated_bytes\": " + std::to_string(s.total_bytes) +
         ", \"client_and_put_object_allocations\": " + std::to_string(s.put_allocations) +
         ", \"client_and_put_object_allocated_bytes\": " + std::to_string(s.put_bytes) + "}";
}

const char* sender_name(Sender sender) {
  switch (sender) {
    case Sender::raw_curl:
      return "raw_curl";
    case Sender::curl_cli:
      return "curl_cli";
    case Sender::put_object:
      return "put_object";
    case Sender::s3up_cp:
      return "s3up_cp";
    case Sender::s3up_cp_multipart:
      return "s3up_cp_multipart";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::map<std::string, std::string> child;
  if (!parse_options(argc, argv, options, child)) {
    std::fprintf(stderr,
                 "usage: put_bench [--json FILE] [--runs N (default 5)] [--tmpdir DIR] [--max-gib N]\n");
    return 2;
  }
  if (child.count("child-case")) return child_main(child);

  try {
    const std::string load_at_start = s3up::bench::load_average();
    const std::uint64_t object_size = gib;
    std::string dir_template = options.tmpdir + "/s3up-put-bench.XXXXXX";
    if (mkdtemp(dir_template.data()) == nullptr)
      throw std::runtime_error("mkdtemp failed in " + options.tmpdir);
    const std::filesystem::path dir = dir_template;
    struct RemoveDir {
      std::filesystem::path path;
      ~RemoveDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
      }
    } remove_dir{dir};

    const std::string data_file = dir / "object-1GiB.bin";
    write_test_file(data_file, object_size);
    const s3up::Digest data_crc32 = read_file_crc32(data_file);
    const std::string cert = dir / "server-cert.pem";
    // The benchmark's servers skip the MD5 ETag (--no-md5-etag): MD5 runs at ~0.7 GB/s on one core and
    // would set the pace of every case. They still verify every CRC32. One more server keeps the MD5 ETag on,
    // for one row that shows what it costs.
    s3up::bench::ServerProcess http(S3UP_CLI_PATH, {"--no-md5-etag"}, dir / "server-http.log");
    s3up::bench::ServerProcess https(S3UP_CLI_PATH, {"--tls", "--cert-out", cert, "--no-md5-etag"},
                                     dir / "server-https.log");
    s3up::bench::ServerProcess http_md5(S3UP_CLI_PATH, {}, dir / "server-http-md5.log");
    s3up::bench::ServerProcess http_multipart(S3UP_CLI_PATH, {"--no-md5-etag"}, dir / "server-http-mp.log");

    // ---- server ingest: the cheapest sender into the server, and into a discarding reader (the ceiling).
    const FileDescriptor data_fd(open(data_file.c_str(), O_RDONLY | O_CLOEXEC));
    if (data_fd.get() < 0) throw std::runtime_error("cannot open " + data_file);
    s3up::bench::DiscardingSink sink;
    std::vector<Ingest> ingest = {
        {"discarding recv() sink, 1 MiB buffer (ceiling)", false, false, {}, 0},
        {"s3up serve --no-md5-etag (verifies the CRC32)", true, false, {}, 0},
        {"s3up serve, MD5 ETag on (CRC32 and MD5)", true, true, {}, 0},
    };
    auto run_ingest = [&](const Ingest& receiver, const std::string& key) {
      const s3up::bench::ServerProcess& server = receiver.md5_etag ? http_md5 : http;
      s3up::bench::IngestPutTarget target{receiver.server ? url_port(server.url()) : sink.port(),
                                          bucket,
                                          key,
                                          s3up::mock::default_access_key,
                                          s3up::mock::default_secret_key,
                                          region};
      const std::uint64_t discarded_before = sink.bytes_discarded();
      const auto start = Clock::now();
      const s3up::bench::IngestPutResult result =
          s3up::bench::ingest_put(target, data_fd.get(), object_size, data_crc32.base64());
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (result.http_status != 200 || result.body_bytes_sent != object_size)
        throw std::runtime_error("ingest PUT to " + receiver.name + " failed: " + result.response_head +
                                 result.response_body);
      if (receiver.server) {
        // The ETag says which mode the server ran in: the CRC32 in hex without MD5, else 32 hex digits.
        const std::string etag_crc32 = "\"" + data_crc32.hex() + "\"";
        const bool crc32_etag = result.response_head.find("ETag: " + etag_crc32) != std::string::npos;
        if (crc32_etag == receiver.md5_etag)
          throw std::runtime_error("unexpected ETag mode from " + receiver.name + ": " +
                                   result.response_head);
        delete_object(server.url(), "", key);
      } else if (sink.bytes_discarded() - discarded_before != object_size) {
        throw std::runtime_error("the discarding sink did not receive the whole body");
      }
      return seconds;
    };
    // Untimed first: the servers' first touch of fresh memory is slow (the kernel clears every page; the
    // server keeps the mapping of a deleted object for the next one).
    for (const Ingest& receiver : ingest) run_ingest(receiver, "warm-up");
    for (int run = 0; run < options.runs; ++run)
      for (Ingest& receiver : ingest)
        receiver.seconds.push_back(run_ingest(receiver, "ingest-" + std::to_string(run)));
    for (Ingest& receiver : ingest) receiver.median = s3up::bench::median(receiver.seconds);

    // ---- end to end, every sender interleaved run by run, so that drift in the machine's speed hits all
    // alike. The `s3up cp` rows time the whole process, start and exit included.
    s3up::bench::RawPutTarget raw_target{
        http.url(), bucket, "", s3up::mock::default_access_key, s3up::mock::default_secret_key, region, ""};
    std::vector<Timed> timed = {
        {"raw PUT, libcurl defaults (curl -T), no checksum", Target::http, Sender::raw_curl, "", {}, 0},
        {"curl -T process (the curl CLI), no checksum", Target::http, Sender::curl_cli, "", {}, 0},
        {"s3up put_object, CRC32 trailer (forced)", Target::http, Sender::put_object, "trailer", {}, 0},
        {"s3up put_object, CRC32 header (pre-read)", Target::http, Sender::put_object, "header", {}, 0},
        {"s3up cp process, one PUT, CRC32 trailer", Target::http, Sender::s3up_cp, "trailer", {}, 0},
        {"s3up cp process, one PUT, CRC32 auto (header)", Target::http, Sender::s3up_cp, "auto", {}, 0},
        {"s3up cp process, multipart, CRC32 trailer [1]",
         Target::http_multipart,
         Sender::s3up_cp_multipart,
         "trailer",
         {},
         0},
        {"s3up cp process, multipart, CRC32 auto (header) [1]",
         Target::http_multipart,
         Sender::s3up_cp_multipart,
         "auto",
         {},
         0},
        {"raw PUT, libcurl defaults (curl -T), no checksum", Target::https, Sender::raw_curl, "", {}, 0},
        {"s3up put_object, CRC32 trailer", Target::https, Sender::put_object, "trailer", {}, 0},
        {"raw PUT, no checksum; server with the MD5 ETag on", Target::http_md5, Sender::raw_curl, "", {}, 0},
    };
    const std::string curl = curl_command();
    if (curl.empty()) {
      std::fprintf(stderr, "put_bench: no curl command on PATH: the `curl -T` process row is left out\n");
      std::erase_if(timed, [](const Timed& t) { return t.sender == Sender::curl_cli; });
    }
    auto run_timed = [&](const Timed& t, const std::string& key) {
      const s3up::bench::ServerProcess& server = t.target == Target::https            ? https
                                                 : t.target == Target::http_md5       ? http_md5
                                                 : t.target == Target::http_multipart ? http_multipart
                                                                                      : http;
      const std::string& url = server.url();
      const std::string ca = t.target == Target::https ? cert : "";
      const auto start = Clock::now();
      switch (t.sender) {
        case Sender::raw_curl: {
          s3up::bench::RawPutTarget target = raw_target;
          target.endpoint_url = url;
          target.ca_bundle = ca;
          target.key = key;
          const s3up::bench::RawPutResult r = s3up::bench::raw_curl_put(target, data_file);
          if (!r.error.empty() || r.http_status != 200 || r.uploaded != object_size)
            throw std::runtime_error("raw PUT failed: " + std::to_string(r.http_status) + " " + r.error);
          break;
        }
        case Sender::curl_cli: {
          const s3up::bench::ChildRun run = s3up::bench::run_child(curl_argv(curl, data_file, url, key), {});
          if (run.exit_status != 0 || run.standard_output != "200")
            throw std::runtime_error("curl -T failed: exit " + std::to_string(run.exit_status) + ", HTTP " +
                                     run.standard_output);
          break;
        }
        case Sender::put_object:
          s3up_put(url, *s3up::parse_checksum_location(t.location), ca, data_file, key);
          break;
        case Sender::s3up_cp:
        case Sender::s3up_cp_multipart: {
          const bool multipart = t.sender == Sender::s3up_cp_multipart;
          const s3up::bench::ChildRun run =
              s3up::bench::run_child(cp_argv(data_file, key, url, t.location, multipart), cp_environment());
          if (run.exit_status != 0) throw std::runtime_error("s3up cp failed for " + key);
          break;
        }
      }
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      delete_object(url, ca, key);
      return seconds;
    };
    for (const Timed& t : timed) run_timed(t, "warm-up");  // one untimed round (see the ingest warm-up)
    for (int run = 0; run < options.runs; ++run)
      for (Timed& t : timed) {
        // Multipart: one untimed upload just before, so that the server's part buffers are warm (see [1]).
        if (t.sender == Sender::s3up_cp_multipart) run_timed(t, "rewarm");
        t.seconds.push_back(run_timed(t, "object-" + std::to_string(run)));
      }
    for (Timed& t : timed) t.median = s3up::bench::median(t.seconds);
    auto raw_row = [&](const Timed& t) -> const Timed& {
      for (const Timed& r : timed)
        if (r.sender == Sender::raw_curl &&
            r.target == (t.scheme() == "https" ? Target::https : Target::http))
          return r;
      throw std::logic_error("no raw PUT row for " + t.name);
    };
    auto raw_median = [&](const Timed& t) { return raw_row(t).median; };
    // Run by run: the raw PUT's time over this row's in the same round (seconds apart, so the VM's drift
    // cancels), their median, and in how many rounds this row was at least as fast.
    struct Paired {
      double median = 0;
      int at_least_as_fast = 0;
    };
    auto paired = [&](const Timed& t) {
      const Timed& raw = raw_row(t);
      std::vector<double> ratios;
      Paired out;
      for (std::size_t i = 0; i < t.seconds.size() && i < raw.seconds.size(); ++i) {
        ratios.push_back(raw.seconds[i] / t.seconds[i]);
        if (ratios.back() >= 1.0) ++out.at_least_as_fast;
      }
      out.median = s3up::bench::median(ratios);
      return out;
    };
    // The `curl -T` process, for the rows that are processes too (HTTP only); 0 when curl is absent.
    auto curl_cli_median = [&](const Timed& t) {
      for (const Timed& r : timed)
        if (r.sender == Sender::curl_cli && t.target != Target::https) return r.median;
      return 0.0;
    };

    // ---- curl's upload buffer (ClientConfig::upload_buffer_size): put_object with a CRC32 trailer at each
    // size curl allows, interleaved run by run like the rows above.
    const std::vector<std::size_t> buffer_sizes = with_default(
        {s3up::min_upload_buffer_size, 64 * 1024, 256 * 1024, 1024 * 1024, s3up::max_upload_buffer_size},
        s3up::default_upload_buffer_size);
    std::vector<BufferRun> buffers;
    for (std::size_t size : buffer_sizes) buffers.push_back({size, {}, {}, 0, 0});
    auto run_buffer = [&](BufferRun& b, const std::string& key, bool timed_run) {
      const double cpu_start = cpu_seconds(RUSAGE_THREAD);
      const auto start = Clock::now();
      s3up_put(http.url(), s3up::ChecksumLocation::trailer, "", data_file, key, b.upload_buffer_size);
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      const double cpu = cpu_seconds(RUSAGE_THREAD) - cpu_start;
      delete_object(http.url(), "", key);
      if (!timed_run) return;
      b.seconds.push_back(seconds);
      b.cpu_seconds.push_back(cpu);
    };
    for (BufferRun& b : buffers) run_buffer(b, "buffer-warm-up", false);
    for (int run = 0; run < options.runs; ++run)
      for (BufferRun& b : buffers) run_buffer(b, "buffer-" + std::to_string(run), true);
    for (BufferRun& b : buffers) {
      b.median = s3up::bench::median(b.seconds);
      b.cpu_median = s3up::bench::median(b.cpu_seconds);
    }

    // ---- the parts' upload buffer (UploadOptions::part_upload_buffer_size): upload() of the file at `cp`'s
    // defaults (8 MiB parts, 4 in flight) in this process, in both locations `cp` uses over HTTP, on the
    // multipart server; interleaved, each timed run right after an untimed one (see [1]).
    const std::vector<std::size_t> part_buffer_sizes =
        with_default({64 * 1024, 128 * 1024, 256 * 1024, 1024 * 1024}, s3up::default_part_upload_buffer_size);
    std::vector<PartBufferRun> part_buffers;
    for (const std::string location : {"trailer", "header"})
      for (std::size_t size : part_buffer_sizes) part_buffers.push_back({location, {size, {}, {}, 0, 0}});
    auto run_part_buffer = [&](PartBufferRun& p, const std::string& key, bool timed_run) {
      s3up::UploadOptions upload_options;
      upload_options.part_upload_buffer_size = p.run.upload_buffer_size;
      const s3up::ClientConfig config =
          client_config(http_multipart.url(), *s3up::parse_checksum_location(p.location), "");
      s3up::FileSource source(data_file);
      const double cpu_start = cpu_seconds(RUSAGE_SELF);
      const auto start = Clock::now();
      auto result = s3up::upload(config, bucket, key, source, upload_options);
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      const double cpu = cpu_seconds(RUSAGE_SELF) - cpu_start;
      if (!result) throw std::runtime_error("upload() failed: " + result.error().to_string());
      if (result->parts == 0) throw std::runtime_error("upload() sent one PutObject, not parts");
      delete_object(http_multipart.url(), "", key);
      if (!timed_run) return;
      p.run.seconds.push_back(seconds);
      p.run.cpu_seconds.push_back(cpu);
    };
    for (PartBufferRun& p : part_buffers) run_part_buffer(p, "part-buffer-warm-up", false);
    for (int run = 0; run < options.runs; ++run)
      for (PartBufferRun& p : part_buffers) {
        run_part_buffer(p, "part-buffer-rewarm", false);
        run_part_buffer(p, "part-buffer-" + std::to_string(run), true);
      }
    for (PartBufferRun& p : part_buffers) {
      p.run.median = s3up::bench::median(p.run.seconds);
      p.run.cpu_median = s3up::bench::median(p.run.cpu_seconds);
    }

    // ---- scaling: one put_object per fresh process, sizes up to max_gib, from sparse files.
    std::vector<std::uint64_t> sizes = {16 * mib, 256 * mib, gib, 4 * gib};
    std::erase_if(sizes, [&](std::uint64_t s) { return s > options.max_gib * gib; });
    std::vector<Scaling> scaling;
    for (std::uint64_t size : sizes) {
      const std::string file = dir / ("sparse-" + ten_digits(size) + ".bin");
      make_sparse_file(file, size);
      const std::string self = std::filesystem::read_symlink("/proc/self/exe");
      const auto [run, max_rss_kib] =
          run_measured(dir,
                       {self, "--child-case", "--url", http.url(), "--file", file, "--key",
                        "scaling-" + ten_digits(size), "--location", "trailer"},
                       {});
      auto fields = parse_fields(run.standard_output);
      if (run.exit_status != 0 || !fields.count("vm_hwm_kib"))
        throw std::runtime_error("the --child-case process failed for " + s3up::bench::size_text(size));
      scaling.push_back({size, std::stod(fields["seconds"]), max_rss_kib, std::stoull(fields["vm_hwm_kib"]),
                         std::stoull(fields["total_allocations"]), std::stoull(fields["total_bytes"]),
                         std::stoull(fields["put_allocations"]), std::stoull(fields["put_bytes"])});
      std::filesystem::remove(file);
    }

    // ---- the real `s3up cp` process: ru_maxrss, and every allocation through the LD_PRELOAD counter. Both
    // sizes from sparse files whose names differ only in the digits of the size (see ten_digits).
    std::vector<CliRun> cli;
    for (const bool multipart : {false, true}) {
      for (const std::string location : {"trailer", "auto"}) {
        for (std::uint64_t size : {gib, 4 * gib}) {
          if (size > options.max_gib * gib) continue;
          const std::string file = dir / ("sparse-cli-" + ten_digits(size) + ".bin");
          make_sparse_file(file, size);
          const std::string counts_file = dir / "cp-allocations.txt";
          const std::string key = "cp-" + location + (multipart ? "-mp-" : "-1-") + ten_digits(size);
          std::vector<std::string> environment = cp_environment();
          environment.push_back("MAXRSS_EXEC_PRELOAD=" S3UP_ALLOC_PRELOAD_PATH);
          environment.push_back("S3UP_BENCH_ALLOC_OUT=" + counts_file);
          const auto [run, max_rss_kib] =
              run_measured(dir, cp_argv(file, key, http_multipart.url(), location, multipart), environment);
          if (run.exit_status != 0) throw std::runtime_error("s3up cp failed for " + key);
          std::ifstream counts(counts_file);
          std::string line;
          std::getline(counts, line);
          std::istringstream words(line);
          std::string word;
          std::map<std::string, std::uint64_t> values;
          while (words >> word) {
            std::uint64_t value = 0;
            words >> value;
            values[word] = value;
          }
          cli.push_back({location, multipart, size, run.seconds, max_rss_kib, values["vm_hwm_kib"],
                         values["allocations"] + values["reallocations"], values["bytes"]});
          delete_object(http_multipart.url(), "", key);
          std::filesystem::remove(file);
        }
      }
    }

    // ---- the `curl -T` process's peak RSS, for the reference figure (11 MB), the same way.
    long curl_cli_rss_kib = 0;
    if (!curl.empty()) {
      const auto [run, max_rss_kib] =
          run_measured(dir, curl_argv(curl, data_file, http.url(), "curl-rss"), {});
      if (run.exit_status != 0 || run.standard_output != "200") throw std::runtime_error("curl -T failed");
      curl_cli_rss_kib = max_rss_kib;
      delete_object(http.url(), "", "curl-rss");
    }

    // ---- tables
    std::printf(
        "put_bench: %s object from a page-cached file; mock servers `s3up serve --no-md5-etag` (ETag from\n"
        "the stored CRC32, which it verifies; no MD5) in child processes on loopback, plus one `s3up serve`\n"
        "with the MD5 ETag on for the rows that say so. Median of %d runs, interleaved, after one untimed\n"
        "warm-up round. MB = 1e6 bytes, GB = 1e9. Load average at start: %s\n\n",
        s3up::bench::size_text(object_size).c_str(), options.runs, load_at_start.c_str());

    std::printf(
        "server ingest: one PUT per run on a fresh connection, by the cheapest sender: UNSIGNED-PAYLOAD\n"
        "with x-amz-checksum-crc32 computed in advance, body by pread() of the page-cached file into one\n"
        "1 MiB buffer and send(); receiver time = connect to response read\n");
    std::printf("%-50s %9s %7s %10s   %s\n", "receiver", "median s", "GB/s", "/ ceiling", "runs (s)");
    const double ceiling = ingest.front().median;
    for (const Ingest& r : ingest) {
      std::printf("%-50s %9.3f %7.2f %10.2f   %s\n", r.name.c_str(), r.median,
                  mb_per_s(object_size, r.median) / 1e3, ceiling / r.median, runs_text(r.seconds).c_str());
    }

    std::printf(
        "\nend to end: ratio = raw PUT time / this time, raw PUT of the same scheme to the --no-md5-etag\n"
        "server (> 1: faster than raw). `s3up cp` and `curl -T` rows time the whole process (spawn, exec,\n"
        "start-up, exit); / curl -T = the `curl -T` process's time / this time (HTTP). one PUT =\n"
        "--multipart-threshold 5GiB, multipart = cp's defaults (8 MiB parts, 4 in flight); auto = header\n"
        "after a pre-read (a custom HTTP endpoint). paired = the median over rounds of raw PUT time / this\n"
        "time within one round, and the rounds in which this row was at least as fast.\n");
    std::printf("%-52s %-6s %9s %9s %7s %10s %10s   %s\n", "case", "scheme", "median s", "MB/s", "ratio",
                "paired", "/ curl -T", "runs (s)");
    for (const Timed& t : timed) {
      char over_cli[16] = "-";
      if (curl_cli_median(t) > 0)
        std::snprintf(over_cli, sizeof over_cli, "%.2f", curl_cli_median(t) / t.median);
      const Paired p = paired(t);
      char paired_text[32];
      std::snprintf(paired_text, sizeof paired_text, "%.2f %d/%zu", p.median, p.at_least_as_fast,
                    t.seconds.size());
      std::printf("%-52s %-6s %9.3f %9.1f %7.2f %10s %10s   %s\n", t.name.c_str(), t.scheme().c_str(),
                  t.median, mb_per_s(object_size, t.median), raw_median(t) / t.median, paired_text, over_cli,
                  runs_text(t.seconds).c_str());
    }
    std::printf(
        "[1] on a server of its own, each timed run right after an untimed one whose deleted parts the\n"
        "server keeps for reuse (up to 256 mappings), so the parts land in memory already faulted in, as\n"
        "the single PUTs' objects do: on this VM fresh memory is slow to touch (the kernel clears every\n"
        "page, and memory freed for more than a few seconds goes back to the hypervisor). A server of its\n"
        "own so that the parts and the single PUTs' 1 GiB mapping do not evict each other from the pool's\n"
        "2 GiB budget.\n");

    std::printf(
        "\ncurl's upload buffer (ClientConfig::upload_buffer_size): s3up put_object, CRC32 trailer, HTTP;\n"
        "client CPU = this thread's user + system time (curl, the encoder, and the loopback send path)\n");
    std::printf("%-20s %9s %9s %14s %11s   %s\n", "upload buffer", "median s", "MB/s", "client CPU s",
                "vs default", "runs (s)");
    // A row of a buffer sweep: the size (marked when it is the default), its times, and its speed against the
    // default's.
    auto print_buffer_row = [&](const BufferRun& b, const BufferRun& default_run) {
      std::printf(
          "%-20s %9.3f %9.1f %14.3f %11.2f   %s\n",
          (s3up::bench::size_text(b.upload_buffer_size) + (&b == &default_run ? " (default)" : "")).c_str(),
          b.median, mb_per_s(object_size, b.median), b.cpu_median, default_run.median / b.median,
          runs_text(b.seconds).c_str());
    };
    for (const BufferRun& b : buffers)
      for (const BufferRun& d : buffers)
        if (d.upload_buffer_size == s3up::default_upload_buffer_size) print_buffer_row(b, d);

    std::printf(
        "\nthe parts' upload buffer (UploadOptions::part_upload_buffer_size): s3up::upload() at cp's "
        "defaults\n"
        "(8 MiB parts, 4 in flight), CRC32, HTTP, in this process; client CPU = the process's user + system\n"
        "time (every part thread); [1] applies\n");
    std::printf("%-9s %-20s %9s %9s %14s %11s   %s\n", "location", "part buffer", "median s", "MB/s",
                "client CPU s", "vs default", "runs (s)");
    for (const PartBufferRun& p : part_buffers) {
      for (const PartBufferRun& d : part_buffers) {
        if (d.location != p.location || d.run.upload_buffer_size != s3up::default_part_upload_buffer_size)
          continue;
        std::printf("%-9s ", p.location.c_str());
        print_buffer_row(p.run, d.run);
      }
    }

    std::printf(
        "\nscaling: one put_object (CRC32 trailer, HTTP) per fresh client process, sparse source file\n");
    std::printf("%-9s %9s %9s %12s %12s %14s %12s %14s\n", "size", "seconds", "MB/s", "ru_maxrss", "VmHWM",
                "process", "process", "Client+put");
    std::printf("%-9s %9s %9s %12s %12s %14s %12s %14s\n", "", "", "", "KiB", "KiB", "allocations", "bytes",
                "allocations");
    for (const Scaling& s : scaling) {
      std::printf(
          "%-9s %9.3f %9.1f %12ld %12llu %14llu %12llu %14llu\n", s3up::bench::size_text(s.bytes).c_str(),
          s.seconds, mb_per_s(s.bytes, s.seconds), s.max_rss_kib,
          static_cast<unsigned long long>(s.vm_hwm_kib), static_cast<unsigned long long>(s.total_allocations),
          static_cast<unsigned long long>(s.total_bytes), static_cast<unsigned long long>(s.put_allocations));
    }
    std::printf(
        "\n`s3up cp` process (HTTP, CRC32, sparse source files named alike; timed in the JSON only, its\n"
        "server's memory being cold here): ru_maxrss from wait4; allocations (+ reallocations) counted by "
        "an\n"
        "LD_PRELOAD malloc from load to exit\n");
    std::printf("%-10s %-9s %-9s %14s %10s %12s %14s\n", "mode", "location", "size", "ru_maxrss KiB",
                "VmHWM KiB", "allocations", "bytes");
    for (const CliRun& c : cli) {
      std::printf("%-10s %-9s %-9s %14ld %10llu %12llu %14llu\n", c.multipart ? "multipart" : "one PUT",
                  c.location.c_str(), s3up::bench::size_text(c.bytes).c_str(), c.max_rss_kib,
                  static_cast<unsigned long long>(c.vm_hwm_kib),
                  static_cast<unsigned long long>(c.allocations),
                  static_cast<unsigned long long>(c.allocated_bytes));
    }
    // What a multipart upload's count grows by: the parts between the two sizes (cp's default part size).
    for (const std::string location : {"trailer", "auto"}) {
      const CliRun* small = nullptr;
      const CliRun* large = nullptr;
      for (const CliRun& c : cli) {
        if (!c.multipart || c.location != location) continue;
        if (small == nullptr || c.bytes < small->bytes) small = &c;
        if (large == nullptr || c.bytes > large->bytes) large = &c;
      }
      if (small == nullptr || small == large) continue;
      const std::uint64_t added_parts = (large->bytes - small->bytes) / s3up::default_part_size;
      const double added = static_cast<double>(large->allocations) - static_cast<double>(small->allocations);
      std::printf("multipart %s: %.1f allocations per part (%.0f more for %llu more parts of %s)\n",
                  location.c_str(), added / static_cast<double>(added_parts), added,
                  static_cast<unsigned long long>(added_parts),
                  s3up::bench::size_text(s3up::default_part_size).c_str());
    }
    if (curl_cli_rss_kib > 0)
      std::printf("the `curl -T` process, 1 GiB page-cached file, no checksum: ru_maxrss %ld KiB\n",
                  curl_cli_rss_kib);
    std::printf(
        "\nmock server peak RSS: http %llu KiB, http multipart %llu KiB, https %llu KiB, http with MD5 ETag "
        "%llu KiB\n",
        static_cast<unsigned long long>(http.peak_rss_kib()),
        static_cast<unsigned long long>(http_multipart.peak_rss_kib()),
        static_cast<unsigned long long>(https.peak_rss_kib()),
        static_cast<unsigned long long>(http_md5.peak_rss_kib()));

    if (!options.json_path.empty()) {
      using s3up::bench::json_number;
      using s3up::bench::json_string;
      std::ofstream out(options.json_path);
      out << "{\n  \"benchmark\": \"put_bench\",\n  \"object_bytes\": " << object_size
          << ",\n  \"runs\": " << options.runs
          << ",\n  \"statistic\": \"median\",\n  \"load_average\": " << json_string(load_at_start)
          << ",\n  \"servers\": {\"default\": \"s3up serve --no-md5-etag\", \"md5_etag_rows\": \"s3up "
             "serve\"},\n"
          << "  \"server_ingest\": [\n";
      for (std::size_t i = 0; i < ingest.size(); ++i) {
        const Ingest& r = ingest[i];
        out << "    {\"name\": " << json_string(r.name)
            << ", \"receiver\": " << json_string(r.server ? "s3up serve" : "discarding sink")
            << ", \"md5_etag\": " << (r.md5_etag ? "true" : "false")
            << ", \"median_seconds\": " << json_number(r.median)
            << ", \"gb_per_s\": " << json_number(mb_per_s(object_size, r.median) / 1e3)
            << ", \"over_ceiling\": " << json_number(ceiling / r.median)
            << ", \"seconds\": " << seconds_json(r.seconds) << "}" << (i + 1 < ingest.size() ? "," : "")
            << "\n";
      }
      out << "  ],\n  \"end_to_end\": [\n";
      for (std::size_t i = 0; i < timed.size(); ++i) {
        const Timed& t = timed[i];
        const Paired p = paired(t);
        out << "    {\"name\": " << json_string(t.name) << ", \"scheme\": " << json_string(t.scheme())
            << ", \"sender\": " << json_string(sender_name(t.sender))
            << ", \"location\": " << json_string(t.location)
            << ", \"server_md5_etag\": " << (t.target == Target::http_md5 ? "true" : "false")
            << ", \"includes_process_start\": "
            << (t.sender == Sender::s3up_cp || t.sender == Sender::s3up_cp_multipart ||
                        t.sender == Sender::curl_cli
                    ? "true"
                    : "false")
            << ", \"median_seconds\": " << json_number(t.median)
            << ", \"mb_per_s\": " << json_number(mb_per_s(object_size, t.median))
            << ", \"raw_over_this\": " << json_number(raw_median(t) / t.median)
            << ", \"paired_raw_over_this\": " << json_number(p.median)
            << ", \"rounds_at_least_as_fast_as_raw\": " << p.at_least_as_fast << ", \"curl_cli_over_this\": "
            << (curl_cli_median(t) > 0 ? json_number(curl_cli_median(t) / t.median) : "null")
            << ", \"seconds\": " << seconds_json(t.seconds) << "}" << (i + 1 < timed.size() ? "," : "")
            << "\n";
      }
      out << "  ],\n  \"upload_buffer\": [\n";
      for (std::size_t i = 0; i < buffers.size(); ++i) {
        const BufferRun& b = buffers[i];
        out << "    {\"upload_buffer_size\": " << b.upload_buffer_size
            << ", \"median_seconds\": " << json_number(b.median)
            << ", \"mb_per_s\": " << json_number(mb_per_s(object_size, b.median))
            << ", \"client_cpu_median_seconds\": " << json_number(b.cpu_median)
            << ", \"seconds\": " << seconds_json(b.seconds)
            << ", \"cpu_seconds\": " << seconds_json(b.cpu_seconds) << "}"
            << (i + 1 < buffers.size() ? "," : "") << "\n";
      }
      out << "  ],\n  \"part_upload_buffer\": [\n";
      for (std::size_t i = 0; i < part_buffers.size(); ++i) {
        const PartBufferRun& p = part_buffers[i];
        out << "    {\"location\": " << json_string(p.location)
            << ", \"part_upload_buffer_size\": " << p.run.upload_buffer_size
            << ", \"median_seconds\": " << json_number(p.run.median)
            << ", \"mb_per_s\": " << json_number(mb_per_s(object_size, p.run.median))
            << ", \"process_cpu_median_seconds\": " << json_number(p.run.cpu_median)
            << ", \"seconds\": " << seconds_json(p.run.seconds)
            << ", \"cpu_seconds\": " << seconds_json(p.run.cpu_seconds) << "}"
            << (i + 1 < part_buffers.size() ? "," : "") << "\n";
      }
      out << "  ],\n  \"scaling\": [\n";
      for (std::size_t i = 0; i < scaling.size(); ++i)
        out << "    " << scaling_json(scaling[i]) << (i + 1 < scaling.size() ? "," : "") << "\n";
      out << "  ],\n  \"s3up_cp\": [\n";
      for (std::size_t i = 0; i < cli.size(); ++i) {
        const CliRun& c = cli[i];
        out << "    {\"mode\": " << json_string(c.multipart ? "multipart" : "one PUT")
            << ", \"location\": " << json_string(c.location) << ", \"bytes\": " << c.bytes
            << ", \"seconds\": " << json_number(c.seconds) << ", \"ru_maxrss_kib\": " << c.max_rss_kib
            << ", \"vm_hwm_kib\": " << c.vm_hwm_kib << ", \"allocations\": " << c.allocations
            << ", \"allocated_bytes\": " << c.allocated_bytes << "}" << (i + 1 < cli.size() ? "," : "")
            << "\n";
      }
      out << "  ],\n  \"curl_cli_ru_maxrss_kib\": " << curl_cli_rss_kib
          << ",\n  \"server_peak_rss_kib\": {\"http\": " << http.peak_rss_kib()
          << ", \"http_multipart\": " << http_multipart.peak_rss_kib()
          << ", \"https\": " << https.peak_rss_kib() << ", \"http_md5_etag\": " << http_md5.peak_rss_kib()
          << "}\n}\n";
      if (!out.flush()) throw std::runtime_error("cannot write " + options.json_path);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "put_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
