// cp_multipart_test.cpp: `s3up cp` through upload(): standard input ('-', piped, so of unknown length) by one
// PUT or in parts, the multipart flags (--multipart-threshold, --part-size, --concurrency, --checksum-type)
// and their usage errors, and a failed multipart upload that leaves nothing behind. The server runs in this
// process so that the test sees what was stored; parts are S3's real 5 MiB minimum.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_support.h"
#include "s3up/checksum.h"
#include "s3up/mock_server.h"
#include "subprocess.h"

namespace {

using s3up::test::run_process;
using s3up::test::TempDir;
using s3up::test::user_environment;
using s3up::test::write_random_file;

const std::string s3up_path = S3UP_CLI_PATH;

std::string stored_text(const s3up::mock::Server& server, const std::string& key) {
  auto stored = server.object_data("bucket", key);
  if (!stored) return "<not stored>";
  return std::string(reinterpret_cast<const char*>(stored->data()), stored->size());
}

// `s3up cp` with arguments, its standard input a pipe fed from `input_file` (none: an empty pipe).
s3up::test::ProcessOutput cp_from_pipe(const std::string& input_file,
                                       const std::vector<std::string>& arguments) {
  std::string command = (input_file.empty() ? std::string("printf ''") : "cat '" + input_file + "'") +
                        " | '" + s3up_path + "' cp";
  for (const std::string& argument : arguments) command += " '" + argument + "'";
  return run_process({"/bin/sh", "-c", command}, user_environment());
}

std::string crc32_of(const std::string& data) {
  return s3up::compute_checksum(s3up::ChecksumAlgorithm::crc32, data).base64();
}

}  // namespace

TEST_CASE("s3up cp - uploads standard input of unknown length: parts above the threshold, one PUT below") {
  TempDir dir;
  const std::string big = write_random_file(dir / "big.bin", 12 << 20, 21);  // parts of 5, 5 and 2 MiB
  const std::string small = write_random_file(dir / "small.bin", 1000, 22);
  s3up::mock::Server server;

  auto output = cp_from_pipe((dir / "big.bin").string(),
                             {"-", "s3://bucket/stdin-big", "--endpoint-url", server.url(),
                              "--multipart-threshold", "6MiB", "--part-size", "5MiB", "--concurrency", "2"});
  INFO(output.out << output.err);
  REQUIRE(output.exit_code == 0);
  CHECK(output.out.find("parts: 3\n") != std::string::npos);
  CHECK(output.out.find("checksum: CRC32 " + crc32_of(big) + " (") != std::string::npos);
  CHECK(output.out.find("FULL_OBJECT") != std::string::npos);
  CHECK(stored_text(server, "stdin-big") == big);
  auto object = server.object("bucket", "stdin-big");
  REQUIRE(object);
  CHECK(object->parts == 3);

  output = cp_from_pipe((dir / "small.bin").string(),
                        {"-", "s3://bucket/stdin-small", "--endpoint-url", server.url()});
  INFO(output.out << output.err);
  REQUIRE(output.exit_code == 0);
  CHECK(output.out.find("parts:") == std::string::npos);
  CHECK(stored_text(server, "stdin-small") == small);
  CHECK(server.object("bucket", "stdin-small")->parts == 0);

  output = cp_from_pipe("", {"-", "s3://bucket/stdin-empty", "--endpoint-url", server.url()});
  INFO(output.out << output.err);
  REQUIRE(output.exit_code == 0);
  CHECK(stored_text(server, "stdin-empty").empty());
  CHECK(server.multipart_upload_count() == 0);
}

TEST_CASE("s3up cp of a file: --checksum-type, and the default type of each algorithm") {
  TempDir dir;
  const std::string data = write_random_file(dir / "object.bin", 11 << 20, 23);  // 5 + 5 + 1 MiB
  const std::string file = (dir / "object.bin").string();
  s3up::mock::Server server;
  struct Case {
    std::vector<std::string> flags;
    std::string type;
  };
  const std::vector<Case> cases = {
      {{"--checksum-algorithm", "SHA256"}, "COMPOSITE"},
      {{"--checksum-algorithm", "CRC32C", "--checksum-type", "composite"}, "COMPOSITE"},
      {{"--checksum-algorithm", "CRC64NVME", "--checksum-location", "trailer"}, "FULL_OBJECT"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv = {
        s3up_path,    "cp",          file,   "s3://bucket/typed",     "--endpoint-url",
        server.url(), "--part-size", "5MiB", "--multipart-threshold", "5MiB"};
    argv.insert(argv.end(), c.flags.begin(), c.flags.end());
    auto output = run_process(argv, user_environment());
    INFO(output.out << output.err);
    REQUIRE(output.exit_code == 0);
    CHECK(output.out.find("parts: 3\n") != std::string::npos);
    CHECK(output.out.find("; " + c.type + ")") != std::string::npos);
    CHECK(server.object("bucket", "typed")->checksum_type == c.type);
    CHECK(stored_text(server, "typed") == data);
  }
}

TEST_CASE("s3up cp multipart flags that cannot work are usage errors (exit code 2), before any request") {
  TempDir dir;
  write_random_file(dir / "object.bin", 1000, 24);
  const std::string file = (dir / "object.bin").string();
  s3up::mock::Server server;
  const std::vector<std::vector<std::string>> wrong = {
      {"--checksum-type", "PARTIAL"},
      {"--concurrency", "0"},
      {"--concurrency", "65"},
      {"--concurrency", "two"},
      {"--part-size", "1MiB"},  // below S3's 5 MiB
      {"--part-size", "6GiB"},  // above S3's 5 GiB
      {"--multipart-threshold", "lots"},
      {"--checksum-algorithm", "SHA1", "--checksum-type", "FULL_OBJECT"},
      {"--checksum-algorithm", "CRC64NVME", "--checksum-type", "COMPOSITE"},
  };
  for (const auto& flags : wrong) {
    std::vector<std::string> argv = {s3up_path, "cp", file, "s3://bucket/k", "--endpoint-url", server.url()};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto output = run_process(argv, user_environment());
    INFO(flags[0] << " " << flags[1] << "\n" << output.out << output.err);
    CHECK(output.exit_code == 2);
  }
  // Standard input has no name to complete a key ending in '/'.
  auto output = cp_from_pipe(file, {"-", "s3://bucket/dir/", "--endpoint-url", server.url()});
  INFO(output.out << output.err);
  CHECK(output.exit_code == 2);
  CHECK(server.stats().requests == 0);
}

TEST_CASE("s3up cp: a multipart upload whose part fails is aborted, exit code 4, nothing left") {
  TempDir dir;
  write_random_file(dir / "object.bin", 11 << 20, 25);
  s3up::mock::Server server;
  s3up::mock::Fault fault;
  fault.kind = s3up::mock::Fault::Kind::error_response;
  fault.status = 500;
  fault.code = "InternalError";
  fault.method = "PUT";
  for (const std::string source : {"file", "stdin"}) {
    server.clear_faults();
    server.inject_fault(fault);
    const std::vector<std::string> flags = {"s3://bucket/failed",
                                            "--endpoint-url",
                                            server.url(),
                                            "--part-size",
                                            "5MiB",
                                            "--multipart-threshold",
                                            "5MiB",
                                            "--max-attempts",
                                            "1"};
    s3up::test::ProcessOutput output;
    if (source == "file") {
      std::vector<std::string> argv = {s3up_path, "cp", (dir / "object.bin").string()};
      argv.insert(argv.end(), flags.begin(), flags.end());
      output = run_process(argv, user_environment());
    } else {
      std::vector<std::string> arguments = {"-"};
      arguments.insert(arguments.end(), flags.begin(), flags.end());
      output = cp_from_pipe((dir / "object.bin").string(), arguments);
    }
    INFO(source << "\n" << output.out << output.err);
    CHECK(output.exit_code == 4);
    CHECK(output.err.find("InternalError") != std::string::npos);
    CHECK(output.err.find("aborted") != std::string::npos);
    CHECK(server.multipart_upload_count() == 0);
    CHECK_FALSE(server.object("bucket", "failed"));
  }
}
