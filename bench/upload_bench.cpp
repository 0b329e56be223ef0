// upload_bench.cpp: `s3up cp` through upload() on a large object (4 GiB by default): throughput and the
// command's peak RSS at several concurrencies, from a file (zero-copy ranges read with pread) and from
// standard input (a pipe: read into concurrency x part-size buffers). The mock server runs as another
// process (`s3up serve --no-md5-etag`) so that its memory is not the client's; each upload's FULL_OBJECT
// CRC32, as the command printed it, is checked against the file's, computed here.
//
// usage: upload_bench [--size BYTES] [--dir DIR] [--part-size BYTES] [--concurrency 1,4,8] [--data-dir DIR]
//                     [--checksum-location auto|header|trailer]
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_support.h"
#include "s3up/checksum.h"
#include "s3up/mock_server.h"
#include "server_process.h"

namespace {

using s3up::bench::gib;
using s3up::bench::mib;

struct Settings {
  std::uint64_t size = 4 * gib;
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::uint64_t part_size = 8 * mib;
  std::vector<int> concurrency = {1, 4, 8};
  std::string server_data_dir;             // empty: the server keeps objects in memory
  std::string checksum_location = "auto";  // over plain HTTP to a custom endpoint: header, after a pre-read
};

Settings parse_settings(int argc, char** argv) {
  Settings settings;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    const std::string value = argv[i + 1];
    if (name == "--size") {
      settings.size = std::stoull(value);
    } else if (name == "--dir") {
      settings.dir = value;
    } else if (name == "--part-size") {
      settings.part_size = std::stoull(value);
    } else if (name == "--checksum-location") {
      settings.checksum_location = value;
    } else if (name == "--data-dir") {
      settings.server_data_dir = value;
    } else if (name == "--concurrency") {
      settings.concurrency.clear();
      std::stringstream list(value);
      for (std::string item; std::getline(list, item, ',');) settings.concurrency.push_back(std::stoi(item));
    } else {
      throw std::runtime_error("unknown option " + name);
    }
  }
  return settings;
}

// size bytes of xorshift output (incompressible, cheap to make), written in 1 MiB blocks; returns its CRC32.
std::string write_data_file(const std::string& path, std::uint64_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  std::vector<std::uint64_t> block(mib / sizeof(std::uint64_t));
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  s3up::Crc32 crc;
  for (std::uint64_t written = 0; written < size;) {
    for (auto& word : block) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      word = state;
    }
    const auto bytes = std::as_bytes(std::span(block));
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), size - written));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(n));
    crc.update(bytes.first(n));
    written += n;
  }
  if (!out) throw std::runtime_error("cannot write " + path);
  return crc.finish().base64();
}

std::string quoted(const std::string& text) {
  return "'" + text + "'";
}

struct Measured {
  std::string source;
  int concurrency = 0;
  double seconds = 0;
  long max_rss_kib = 0;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    const Settings settings = parse_settings(argc, argv);
    const std::string data_file = (settings.dir / "s3up-upload-bench.bin").string();
    std::fprintf(stderr, "writing %s (%s)...\n", data_file.c_str(),
                 s3up::bench::size_text(settings.size).c_str());
    const std::string crc32 = write_data_file(data_file, settings.size);

    std::vector<std::string> serve_flags = {"--no-md5-etag"};
    if (!settings.server_data_dir.empty())
      serve_flags.insert(serve_flags.end(), {"--data-dir", settings.server_data_dir});
    const std::string server_log = (settings.dir / "s3up-upload-bench-server.log").string();
    s3up::bench::ServerProcess server(S3UP_CLI_PATH, serve_flags, server_log);
    const std::vector<std::string> environment = {
        "AWS_ACCESS_KEY_ID=" + std::string(s3up::mock::default_access_key),
        "AWS_SECRET_ACCESS_KEY=" + std::string(s3up::mock::default_secret_key), "AWS_REGION=us-east-1"};
    const std::string report = (settings.dir / "s3up-upload-bench-maxrss.txt").string();

    std::vector<Measured> results;
    for (const std::string source : {"file", "stdin"}) {
      for (int concurrency : settings.concurrency) {
        // maxrss_exec reports the command's own peak RSS (see maxrss_exec.cpp); for stdin, cat feeds it
        // through a pipe, as `producer | s3up cp -` would.
        std::string command =
            quoted(S3UP_MAXRSS_EXEC_PATH) + " " + quoted(report) + " " + quoted(S3UP_CLI_PATH) + " cp " +
            (source == "file" ? quoted(data_file) : std::string("-")) + " s3://bench/object --endpoint-url " +
            quoted(server.url()) + " --part-size " + std::to_string(settings.part_size) + " --concurrency " +
            std::to_string(concurrency) + " --checksum-algorithm CRC32";
        if (source == "stdin") command = "cat " + quoted(data_file) + " | " + command;
        auto run = s3up::bench::run_child({"/bin/sh", "-c", command}, environment);
        if (run.exit_status != 0) throw std::runtime_error("s3up cp failed: " + command);
        // upload() checked the server's FULL_OBJECT CRC32 against the parts'; this checks it against the
        // file's.
        if (run.standard_output.find("checksum: CRC32 " + crc32 + " ") == std::string::npos) {
          throw std::runtime_error("the stored CRC32 is not the file's " + crc32 + ":\n" +
                                   run.standard_output);
        }
        Measured measured{source, concurrency, run.seconds, 0};
        std::ifstream in(report);
        std::string line;
        std::getline(in, line);
        if (auto at = line.find("ru_maxrss_kib="); at != std::string::npos)
          measured.max_rss_kib = std::stol(line.substr(at + 14));
        results.push_back(measured);
        std::fprintf(stderr, "%s concurrency %d: %.2f s\n", source.c_str(), concurrency, run.seconds);
      }
    }

    std::printf(
        "s3up cp of %s to s3up serve (--no-md5-etag, %s), part size %s, CRC32 FULL_OBJECT in %s; load %s\n",
        s3up::bench::size_text(settings.size).c_str(),
        settings.server_data_dir.empty() ? "in memory" : "on disk",
        s3up::bench::size_text(settings.part_size).c_str(), settings.checksum_location.c_str(),
        s3up::bench::load_average().c_str());
    std::printf("%-7s %11s %9s %9s %14s\n", "source", "concurrency", "seconds", "MB/s", "peak RSS MiB");
    for (const Measured& m : results) {
      std::printf("%-7s %11d %9.2f %9.0f %14.1f\n", m.source.c_str(), m.concurrency, m.seconds,
                  static_cast<double>(settings.size) / m.seconds / 1e6,
                  static_cast<double>(m.max_rss_kib) / 1024);
    }
    std::printf("server peak RSS: %.1f MiB\n", static_cast<double>(server.peak_rss_kib()) / 1024);
    std::filesystem::remove(data_file);
    std::filesystem::remove(report);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "upload_bench: %s\n", error.what());
    return 1;
  }
}
