// s3_error.cpp: S3 error values and their XML rendering.
#include "s3_error.h"

#include <string>

#include "s3up/checksum.h"

namespace s3up::mock {

S3Error s3_error(int status, std::string_view code, std::string_view message) {
  S3Error error;
  error.status = status;
  error.code = code;
  error.message = message;
  return error;
}

namespace {

void append_element(std::string& out, std::string_view name, std::string_view text) {
  out += '<';
  out += name;
  out += '>';
  out += xml_escape(text);
  out += "</";
  out += name;
  out += '>';
}

}  // namespace

std::string error_document(const S3Error& error, std::string_view request_id, std::string_view host_id) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>";
  append_element(out, "Code", error.code);
  append_element(out, "Message", error.message);
  for (const auto& [name, text] : error.details) append_element(out, name, text);
  append_element(out, "RequestId", request_id);
  append_element(out, "HostId", host_id);
  out += "</Error>";
  return out;
}

S3Error body_terminated_error() {
  return s3_error(400, "IncompleteBody", "The request body terminated unexpectedly");
}

namespace {

S3Error count_error(std::uint64_t expected, std::uint64_t provided) {
  S3Error error =
      s3_error(400, "IncompleteBody",
               "You did not provide the number of bytes specified by the Content-Length HTTP header");
  error.details.emplace_back("NumberBytesExpected", std::to_string(expected));
  error.details.emplace_back("NumberBytesProvided", std::to_string(provided));
  return error;
}

}  // namespace

S3Error content_length_error(std::uint64_t expected, std::uint64_t provided) {
  return count_error(expected, provided);
}

// S3 words a wrong x-amz-decoded-content-length like a short Content-Length (reference §7.2).
S3Error decoded_length_error(std::uint64_t expected, std::uint64_t provided) {
  return count_error(expected, provided);
}

S3Error malformed_trailer_error() {
  return s3_error(400, "MalformedTrailerError",
                  "The request contained trailing data that was not well-formed or did not conform to our "
                  "published schema.");
}

S3Error entity_too_large_error(std::uint64_t proposed, std::uint64_t max_allowed) {
  S3Error error = s3_error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size");
  error.details.emplace_back("ProposedSize", std::to_string(proposed));
  error.details.emplace_back("MaxSizeAllowed", std::to_string(max_allowed));
  return error;
}

S3Error request_timeout_error() {
  return s3_error(400, "RequestTimeout",
                  "Your socket connection to the server was not read from or written to within the timeout "
                  "period. Idle connections will be closed.");
}

S3Error internal_error(std::string_view why) {
  return s3_error(500, "InternalError", std::string("We encountered an internal error: ") + std::string(why));
}

S3Error content_sha256_mismatch_error(std::string_view client_computed, std::string_view computed) {
  S3Error error = s3_error(400, "XAmzContentSHA256Mismatch",
                           "The provided 'x-amz-content-sha256' header does not match what was computed.");
  error.details.emplace_back("ClientComputedContentSHA256", std::string(client_computed));
  error.details.emplace_back("S3ComputedContentSHA256", std::string(computed));
  return error;
}

}  // namespace s3up::mock
