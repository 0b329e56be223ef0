// tests/cli/json_output_test.cpp: the JSON string escaping of `s3up cp --output json` (cli/json_output.h),
// read back by Python's json module: every ASCII byte, UTF-8, and invalid UTF-8 that must become U+FFFD.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "cli/json_output.h"
#include "subprocess.h"

TEST_CASE("json_string: Python's json.loads gives back every character, invalid UTF-8 as U+FFFD") {
  if (!s3up::test::have_program("python3")) {
    WARN("skipped: python3 not found, and the JSON must be read by an independent parser");
    return;
  }
  std::string text;
  std::string expected;  // the code points, in hex, as the Python below prints them
  for (int c = 0; c < 0x80; ++c) {
    text += static_cast<char>(c);
    std::ostringstream hex;
    hex << std::hex << c << ' ';
    expected += hex.str();
  }
  text += "\xC3\xA9";          // U+00E9, valid
  text += "\xF0\x9F\x98\x80";  // U+1F600, valid (4 bytes)
  text += "\xFF";              // never valid in UTF-8
  text += "\xED\xA0\x80";      // a UTF-16 surrogate: invalid in UTF-8, each byte replaced
  text += "\xC0\xAF";          // an overlong '/'
  text += "\xE2\x82";          // a sequence cut short
  expected += "e9 1f600 fffd fffd fffd fffd fffd fffd fffd fffd ";

  const std::string json = s3up::cli::json_string(text);
  for (char c : json) CHECK(static_cast<unsigned char>(c) >= 0x20);  // JSON forbids raw control characters
  auto output = s3up::test::run_process(
      {"/usr/bin/env", "python3", "-c",
       "import json, sys\nprint(''.join('%x ' % ord(c) for c in json.loads(sys.argv[1])), end='')", json},
      s3up::test::make_environment({}));
  INFO(json << "\n" << output.err);
  REQUIRE(output.exit_code == 0);
  CHECK(output.out == expected);
}

TEST_CASE("json_string: the short escapes of RFC 8259") {
  CHECK(s3up::cli::json_string("a\"b\\c\nd\te\rf\bg\fh") == R"("a\"b\\c\nd\te\rf\bg\fh")");
  CHECK(s3up::cli::json_string("") == R"("")");
  CHECK(s3up::cli::json_string(std::string("\x01\x1f\x7f", 3)) == R"("\u0001\u001f\u007f")");
}
