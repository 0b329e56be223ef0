// tests/cli/arguments_test.cpp: the option parser's "-h" (help only where an option could stand) and the
// size formatting that tables and the progress bar share.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cli/arguments.h"

using s3up::cli::Arguments;

TEST_CASE("Arguments: -h is the help flag, except as an option's value or after --") {
  const std::set<std::string> values = {"content-type"};
  const std::set<std::string> flags = {"help"};

  const Arguments value({"FILE", "--content-type", "-h", "s3://b/k"}, values, flags);
  CHECK_FALSE(value.flag("help"));
  CHECK(value.value("content-type") == "-h");
  CHECK(value.positional() == std::vector<std::string>{"FILE", "s3://b/k"});

  const Arguments help({"FILE", "-h", "--content-type", "text/plain"}, values, flags);
  CHECK(help.flag("help"));
  CHECK(help.value("content-type") == "text/plain");
  CHECK(help.positional() == std::vector<std::string>{"FILE"});

  const Arguments file_name({"--", "-h", "s3://b/k"}, values, flags);
  CHECK_FALSE(file_name.flag("help"));
  CHECK(file_name.positional() == std::vector<std::string>{"-h", "s3://b/k"});

  // A command without --help keeps "-h" as an ordinary argument.
  const Arguments no_help({"-h"}, values, {});
  CHECK(no_help.positional() == std::vector<std::string>{"-h"});
}

TEST_CASE("format_size and format_size_to: bytes whole, binary units with one decimal above") {
  // Worked by hand: 1536 = 1.5 x 1024; 3 MiB = 3 x 2^20; 2^50 = 1024 x 2^40 (TiB is the largest unit);
  // 2^64 - 1 rounds to 2^64 = 16777216 x 2^40.
  struct Case {
    std::uint64_t bytes;
    const char* text;
  };
  const Case cases[] = {{0, "0 B"},
                        {1023, "1023 B"},
                        {1024, "1.0 KiB"},
                        {1536, "1.5 KiB"},
                        {3u << 20, "3.0 MiB"},
                        {5ull << 29, "2.5 GiB"},
                        {1ull << 40, "1.0 TiB"},
                        {1ull << 50, "1024.0 TiB"},
                        {UINT64_MAX, "16777216.0 TiB"}};
  for (const Case& c : cases) {
    INFO(c.bytes);
    CHECK(s3up::cli::format_size(c.bytes) == c.text);
    char buffer[32];
    s3up::cli::format_size_to(buffer, sizeof buffer, c.bytes);
    CHECK(std::string(buffer) == c.text);
  }
}
