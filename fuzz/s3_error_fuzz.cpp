// fuzz/s3_error_fuzz.cpp: libFuzzer target for the client's S3 error parsing: parse_s3_error on any text,
// and service_error on an answer built from the input. Input: the XML body alone, or, when it holds a NUL
// byte, "<status> <reason>\n<name>: <value>\n..." before the NUL and the body after it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "client/s3_error.h"
#include "s3up/client.h"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "S3 error parser: %s\n", what);
  std::abort();
}

// "<status> <reason>" then header lines; bad lines are skipped (the fuzzer's business is the body parser and
// service_error, not this harness's own format).
void parse_head(std::string_view head, s3up::HttpResponse& response) {
  std::size_t line_end = head.find('\n');
  std::string_view status_line = head.substr(0, line_end);
  long status = 0;
  std::size_t at = 0;
  while (at < status_line.size() && at < 3 && status_line[at] >= '0' && status_line[at] <= '9')
    status = status * 10 + (status_line[at++] - '0');
  response.status = status;
  response.reason = std::string(s3up::trim_http_whitespace(status_line.substr(at)));
  while (line_end != std::string_view::npos) {
    head.remove_prefix(line_end + 1);
    line_end = head.find('\n');
    std::string_view line = head.substr(0, line_end);
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    response.headers.emplace_back(s3up::ascii_lowercase(s3up::trim_http_whitespace(line.substr(0, colon))),
                                  std::string(s3up::trim_http_whitespace(line.substr(colon + 1))));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  s3up::HttpResponse response;
  std::size_t nul = input.find('\0');
  if (nul == std::string_view::npos) {
    response.status = 403;
    response.reason = "Forbidden";
    response.body = std::string(input);
  } else {
    parse_head(input.substr(0, nul), response);
    response.body = std::string(input.substr(nul + 1));
  }
  response.body_bytes = response.body.size();

  if (auto parsed = s3up::parse_s3_error(response.body)) {
    // What was parsed comes from the body: no field can be longer than the text it was unescaped from,
    // and entities only shrink (a character reference of up to 10 characters makes at most 4 bytes).
    const std::size_t total =
        parsed->code.size() + parsed->message.size() + parsed->request_id.size() + parsed->host_id.size();
    if (total > response.body.size()) fail("parsed fields longer than the document");
  }

  // The promise service_error makes: never an empty code or message, whatever the server sent.
  const s3up::Error error = s3up::service_error(response);
  if (error.kind != s3up::Error::Kind::service) fail("service_error made another kind of error");
  if (error.code.empty()) fail("service error without a code");
  if (error.message.empty()) fail("service error without a message");
  if (error.http_status != response.status) fail("service error with another status");
  (void)error.to_string();
  return 0;
}
