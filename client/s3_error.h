// client/s3_error.h: the service Error built from a non-2xx HTTP answer (private to the client module).
#pragma once

#include "client/http_exchange.h"
#include "s3up/client.h"

namespace s3up {

// Code, message, request id and host id from the XML <Error> body, falling back to the status line and the
// x-amz-request-id / x-amz-id-2 headers.
Error service_error(const HttpResponse& response);

}  // namespace s3up
