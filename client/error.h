// client/error.h: how the client module makes its typed Errors: the one constructor every module file uses,
// and the Error for a body source or encoder failure.
#pragma once

#include <string>

#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

Error make_error(Error::Kind kind, std::string code, std::string message);

// Error{body} named after the BodyError's kind (BodyEndedEarly, BodyNotRewindable...), or
// Error{invalid_argument} for a bad argument (chunk size, file range).
Error body_error(const BodyError& error);

}  // namespace s3up
