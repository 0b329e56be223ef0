// emulation.h: the refusals of the S3-compatible services the server can emulate (ServerOptions::emulate),
// each with the error that service answers.
#pragma once

#include <cstdint>
#include <optional>

#include "s3_error.h"
#include "s3up/mock_server.h"

namespace s3up::mock {

struct HttpRequest;

// The error the emulated service answers to this request's head (its headers and payload mode), whatever
// the operation; nullopt when it would go on.
std::optional<S3Error> emulation_refusal(Emulation emulation, const HttpRequest& request);

// The largest aws-chunked chunk the emulated service takes; 0: no limit.
std::uint64_t emulated_max_chunk_size(Emulation emulation);

// MinIO's answer to a chunk over that limit.
S3Error chunk_too_big_error();

}  // namespace s3up::mock
