// small_body.h: the body of a request that carries no object (CreateBucketConfiguration, the
// CompleteMultipartUpload document...): read whole up to a limit and checked against x-amz-content-sha256.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "http_body.h"
#include "s3_error.h"

namespace s3up::mock {

struct HttpRequest;

inline constexpr std::uint64_t max_small_body = 1 << 20;

// scratch: a reusable read buffer. text: receives the body when given (else it is only hashed). A body
// longer than max_size fails with MaxMessageLengthExceeded.
std::optional<S3Error> receive_small_body(const HttpRequest& request, RequestBody& body,
                                          std::span<std::byte> scratch, std::string* text = nullptr,
                                          std::uint64_t max_size = max_small_body);

}  // namespace s3up::mock
