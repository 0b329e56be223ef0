// small_body.cpp: reading and verifying the body of a request other than PutObject and UploadPart.
#include "small_body.h"

#include "http_request.h"
#include "put_object.h"
#include "put_request.h"
#include "s3up/checksum.h"

namespace s3up::mock {

std::optional<S3Error> receive_small_body(const HttpRequest& request, RequestBody& body,
                                          std::span<std::byte> scratch, std::string* text,
                                          std::uint64_t max_size) {
  // Parsed as sent (UNSIGNED-PAYLOAD is case-sensitive); only a hex hash is compared case-blind.
  const std::string header = request.value("x-amz-content-sha256").value_or("");
  const std::string_view sent = trim_http_whitespace(header);
  auto mode = parse_payload_mode(sent);
  const std::string content_sha256 = ascii_lowercase(sent);
  if (!mode)
    return s3_error(400, "InvalidArgument",
                    "x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a valid sha256 value.");
  if (is_streaming(*mode)) {
    return s3_error(501, "NotImplemented",
                    "An aws-chunked body outside PutObject and UploadPart is not implemented by the s3up "
                    "mock server");
  }
  Sha256 sha256;
  while (!body.complete()) {
    auto result = body.read(scratch);
    if (result.size > 0) {
      if (body.received() > max_size)
        return s3_error(400, "MaxMessageLengthExceeded", "Your request was too big.");
      auto data = scratch.first(result.size);
      sha256.update(data);
      if (text) text->append(reinterpret_cast<const char*>(data.data()), data.size());
    } else if (result.status != RequestBody::Status::end) {
      return body_read_error(body, result.status);
    }
  }
  if (*mode == PayloadMode::signed_payload) {
    std::string computed = sha256.finish().hex();
    if (computed != content_sha256) return content_sha256_mismatch_error(content_sha256, computed);
  }
  return std::nullopt;
}

}  // namespace s3up::mock
