// s3_error.h: the S3 error a request ends with (HTTP status, S3 code, message, extra elements) and its XML
// document (reference §7.1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3up::mock {

struct S3Error {
  int status = 400;
  std::string code;
  std::string message;
  std::vector<std::pair<std::string, std::string>> details;  // extra <Name>text</Name> elements, in order
};

S3Error s3_error(int status, std::string_view code, std::string_view message);

// <?xml ...?><Error><Code/><Message/>[details]<RequestId/><HostId/></Error>
std::string error_document(const S3Error& error, std::string_view request_id, std::string_view host_id);

// Errors raised from several places, with S3's wording.
S3Error body_terminated_error();  // aws-chunked or HTTP chunked framing broken or cut short
S3Error content_length_error(std::uint64_t expected, std::uint64_t provided);
S3Error decoded_length_error(std::uint64_t expected, std::uint64_t provided);
S3Error malformed_trailer_error();
S3Error entity_too_large_error(std::uint64_t proposed, std::uint64_t max_allowed);
S3Error request_timeout_error();  // the client went silent mid-request
S3Error internal_error(std::string_view why);
// The body's SHA-256 is not the hex x-amz-content-sha256 the client signed.
S3Error content_sha256_mismatch_error(std::string_view client_computed, std::string_view computed);

}  // namespace s3up::mock
