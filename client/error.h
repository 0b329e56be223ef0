// client/error.h: how the client module makes its typed Errors: the one constructor every module file uses,
// and the Errors for a timeout, a cancel, and a body source or encoder failure.
#pragma once

#include <string>

#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

Error make_error(Error::Kind kind, std::string code, std::string message);

// Error{timeout} with code "connect_timeout", "stall_timeout" or "request_timeout": which limit ran out.
Error timeout_error(std::string code, std::string message);
// Error{cancelled, code "cancelled"}: Client::cancel() was called.
Error cancelled_error();

// Error{body} named after the BodyError's kind (BodyEndedEarly, BodyNotRewindable...), or
// Error{invalid_argument} for a bad argument (chunk size, file range).
Error body_error(const BodyError& error);

}  // namespace s3up
