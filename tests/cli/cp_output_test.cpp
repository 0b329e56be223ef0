// tests/cli/cp_output_test.cpp: what `s3up cp` prints: --output json read back by Python's json module (an
// independent parser) and compared with what the server stored and with a CRC32 computed by Python's zlib;
// the progress bar, absent when stderr is not a terminal and present under a pseudo-terminal; --help and -h
// of each subcommand and of s3up itself.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "s3up/mock_server.h"
#include "subprocess.h"

namespace {

using s3up::test::have_program;
using s3up::test::run_process;
using s3up::test::TempDir;
using s3up::test::user_environment;
using s3up::test::write_random_file;

const std::string s3up_path = S3UP_CLI_PATH;

// Parses `json` with Python and prints, one per line, the fields the tests compare, then the CRC32 of `file`
// by zlib in the base64 of its 4 big-endian bytes (S3's x-amz-checksum-crc32 form).
constexpr const char* python_reader = R"(import base64, json, sys, zlib
o = json.loads(sys.argv[1])
for name in ("bucket", "key", "bytes", "etag", "checksum_algorithm", "checksum", "checksum_type", "parts",
             "attempts"):
    print(name + "=" + str(o[name]))
print("seconds_is_number=" + str(isinstance(o["seconds"], float) and o["seconds"] >= 0))
crc = zlib.crc32(open(sys.argv[2], "rb").read()) & 0xffffffff
print("zlib_crc32=" + base64.b64encode(crc.to_bytes(4, "big")).decode())
)";

std::map<std::string, std::string> read_with_python(const std::string& json, const std::string& file) {
  auto output = run_process({"/usr/bin/env", "python3", "-c", python_reader, json, file},
                            s3up::test::make_environment({}));
  INFO(output.err);
  REQUIRE(output.exit_code == 0);
  std::map<std::string, std::string> fields;
  std::istringstream lines(output.out);
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find('=');
    fields[line.substr(0, equals)] = line.substr(equals + 1);
  }
  return fields;
}

}  // namespace

TEST_CASE("s3up cp --output json: one object that Python reads, with the values the server stored") {
  if (!have_program("python3")) {
    WARN("skipped: python3 not found, and the JSON must be read by an independent parser");
    return;
  }
  TempDir dir;
  s3up::mock::Server server;

  SECTION("one PUT, a key that needs escaping: quote, backslash, UTF-8") {
    const std::string file = (dir / "object.bin").string();
    write_random_file(file, 100'000, 71);
    const std::string key = "dir/a \"quoted\" back\\slash \xC3\xA9t\xC3\xA9.bin";
    auto output = run_process(
        {s3up_path, "cp", file, "s3://bucket/" + key, "--endpoint-url", server.url(), "--output", "json"},
        user_environment());
    INFO(output.out << output.err);
    REQUIRE(output.exit_code == 0);
    CHECK(std::count(output.out.begin(), output.out.end(), '\n') == 1);  // one line, the object only
    auto stored = server.object("bucket", key);
    REQUIRE(stored);
    REQUIRE(stored->checksum);

    auto fields = read_with_python(output.out, file);
    CHECK(fields["bucket"] == "bucket");
    CHECK(fields["key"] == key);
    CHECK(fields["bytes"] == "100000");
    CHECK(fields["etag"] == stored->etag);
    CHECK(fields["checksum_algorithm"] == "CRC32");
    CHECK(fields["checksum"] == fields["zlib_crc32"]);
    CHECK(fields["checksum"] == stored->checksum->second);
    CHECK(fields["checksum_type"] == "FULL_OBJECT");
    CHECK(fields["parts"] == "0");
    CHECK(fields["attempts"] == "1");
    CHECK(fields["seconds_is_number"] == "True");
  }
  SECTION("multipart: the part count, and the whole object's CRC32 combined from the parts'") {
    const std::string file = (dir / "parts.bin").string();
    write_random_file(file, 11 << 20, 72);  // parts of S3's minimum 5 MiB: 5 + 5 + 1 MiB
    auto output = run_process({s3up_path, "cp", file, "s3://bucket/parts", "--endpoint-url", server.url(),
                               "--output", "json", "--multipart-threshold", "5MiB", "--part-size", "5MiB"},
                              user_environment());
    INFO(output.out << output.err);
    REQUIRE(output.exit_code == 0);
    auto stored = server.object("bucket", "parts");
    REQUIRE(stored);
    auto fields = read_with_python(output.out, file);
    CHECK(fields["parts"] == "3");
    CHECK(stored->parts == 3);
    CHECK(fields["etag"] == stored->etag);
    CHECK(fields["checksum"] == fields["zlib_crc32"]);
    CHECK(fields["checksum_type"] == "FULL_OBJECT");
    CHECK(fields["bytes"] == std::to_string(11 << 20));
  }
  SECTION("no checksum: the checksum fields are null") {
    const std::string file = (dir / "plain.bin").string();
    write_random_file(file, 1000, 73);
    auto output = run_process({s3up_path, "cp", file, "s3://bucket/plain", "--endpoint-url", server.url(),
                               "--output", "json", "--checksum-algorithm", "NONE", "--quiet"},
                              user_environment());
    INFO(output.out << output.err);
    REQUIRE(output.exit_code == 0);
    auto fields = read_with_python(output.out, file);
    CHECK(fields["checksum_algorithm"] == "None");  // Python's str(None): the JSON held null
    CHECK(fields["checksum"] == "None");
    CHECK(fields["checksum_type"] == "None");
  }
  SECTION("an unknown format is a usage error") {
    auto output =
        run_process({s3up_path, "cp", "x", "s3://bucket/x", "--output", "yaml"}, user_environment());
    CHECK(output.exit_code == 2);
  }
}

TEST_CASE("s3up cp: no progress bar when stderr is not a terminal, one under a pseudo-terminal") {
  TempDir dir;
  const std::string file = (dir / "object.bin").string();
  write_random_file(file, 3 << 20, 74);
  s3up::mock::Server server;

  auto piped = run_process({s3up_path, "cp", file, "s3://bucket/piped", "--endpoint-url", server.url()},
                           user_environment());
  INFO(piped.out << piped.err);
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.find('\r') == std::string::npos);
  CHECK(piped.err.find('%') == std::string::npos);
  CHECK(piped.err.find("MiB/s") == std::string::npos);

  if (!have_program("script")) {
    WARN(
        "skipped the terminal half: util-linux `script` (which gives the command a pseudo-terminal) not "
        "found");
    return;
  }
  // `script -q -e -c CMD /dev/null` runs CMD on a pseudo-terminal and copies what it writes to stdout,
  // with CMD's exit code.
  auto command = [&](const std::string& key, const std::string& extra) {
    return "'" + s3up_path + "' cp '" + file + "' s3://bucket/" + key + " --endpoint-url " + server.url() +
           extra;
  };
  auto tty = run_process({"/usr/bin/env", "script", "-q", "-e", "-c", command("tty", ""), "/dev/null"},
                         user_environment());
  INFO(tty.out << tty.err);
  REQUIRE(tty.exit_code == 0);
  CHECK(tty.out.find("100%") != std::string::npos);
  CHECK(tty.out.find("3.0 MiB / 3.0 MiB") != std::string::npos);
  CHECK(tty.out.find("/s") != std::string::npos);
  CHECK(tty.out.find("\r\x1b[K") != std::string::npos);  // the line is erased before the result
  CHECK(tty.out.find("upload: ") != std::string::npos);

  auto quiet =
      run_process({"/usr/bin/env", "script", "-q", "-e", "-c", command("tty-quiet", " --quiet"), "/dev/null"},
                  user_environment());
  INFO(quiet.out << quiet.err);
  REQUIRE(quiet.exit_code == 0);
  CHECK(quiet.out.find('%') == std::string::npos);
  auto no_progress = run_process(
      {"/usr/bin/env", "script", "-q", "-e", "-c", command("tty-no-progress", " --no-progress"), "/dev/null"},
      user_environment());
  REQUIRE(no_progress.exit_code == 0);
  CHECK(no_progress.out.find('%') == std::string::npos);
  CHECK(no_progress.out.find("upload: ") != std::string::npos);
}

TEST_CASE("s3up --help, and --help and -h of each subcommand: usage on stdout, exit code 0") {
  for (const std::string command : {"cp", "serve", "demo"}) {
    for (const std::string flag : {"--help", "-h"}) {
      auto output = run_process({s3up_path, command, flag}, user_environment());
      INFO(command << " " << flag << "\n" << output.err);
      CHECK(output.exit_code == 0);
      CHECK(output.out.rfind("usage: s3up " + command, 0) == 0);
    }
  }
  auto cp = run_process({s3up_path, "cp", "--help"}, user_environment());
  for (const std::string option :
       {"--profile", "--output text|json", "--provider", "--no-progress", "--quiet"}) {
    CHECK(cp.out.find(option) != std::string::npos);
  }

  for (const std::string flag : {"--help", "-h", "help"}) {
    auto top = run_process({s3up_path, flag}, user_environment());
    INFO(flag);
    CHECK(top.exit_code == 0);
    for (const std::string text : {"cp ", "serve ", "demo ", "exit codes", "130", "AWS_PROFILE",
                                   "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "S3UP_LOG_LEVEL"}) {
      CHECK(top.out.find(text) != std::string::npos);
    }
  }
  // No command at all is a usage error: the usage goes to stderr, exit code 2.
  auto none = run_process({s3up_path}, user_environment());
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("usage: s3up") != std::string::npos);
}

TEST_CASE("s3up cp: -h is help only where an option could be, not as an option's value or after --") {
  TempDir dir;
  const std::string file = (dir / "object.bin").string();
  write_random_file(file, 1000, 75);
  s3up::mock::Server server;

  // The value of --content-type: uploaded with Content-Type "-h", no usage printed.
  auto value = run_process(
      {s3up_path, "cp", file, "s3://bucket/typed", "--content-type", "-h", "--endpoint-url", server.url()},
      user_environment());
  INFO(value.out << value.err);
  REQUIRE(value.exit_code == 0);
  CHECK(value.out.find("usage:") == std::string::npos);
  auto object = server.object("bucket", "typed");
  REQUIRE(object);
  CHECK(object->content_type == "-h");

  // After the FILE, before any "--": help, nothing uploaded.
  auto help = run_process({s3up_path, "cp", file, "s3://bucket/help", "-h", "--endpoint-url", server.url()},
                          user_environment());
  CHECK(help.exit_code == 0);
  CHECK(help.out.rfind("usage: s3up cp", 0) == 0);
  CHECK_FALSE(server.object("bucket", "help"));

  // After "--" it is a file name: the file "-h" does not exist here, a local error (exit 3), not help.
  auto file_name = run_process(
      {s3up_path, "cp", "--endpoint-url", server.url(), "--", "-h", "s3://bucket/dash"}, user_environment());
  CHECK(file_name.exit_code == 3);
  CHECK(file_name.out.find("usage:") == std::string::npos);
}
