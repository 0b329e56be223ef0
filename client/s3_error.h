// client/s3_error.h: the Errors built from an HTTP answer (private to the client module): a service error
// from a non-2xx, a checksum mismatch from a 2xx whose checksum disagrees with ours.
#pragma once

#include <string>

#include "client/http_exchange.h"
#include "s3up/client.h"

namespace s3up {

// Code, message, request id and host id from the XML <Error> body, falling back to the status line and the
// x-amz-request-id / x-amz-id-2 headers.
Error service_error(const HttpResponse& response);

// Error{checksum_mismatch, ChecksumMismatch} with the answer's status, request id and host id.
Error checksum_mismatch_error(const HttpResponse& response, std::string message);

}  // namespace s3up
