// error.cpp: the text forms of Error and Error::Kind, one line for people and logs, and the Errors the module
// makes (client/error.h).
#include "client/error.h"

#include <string>
#include <string_view>
#include <utility>

#include "s3up/client.h"

namespace s3up {

std::string_view to_string(Error::Kind kind) {
  switch (kind) {
    case Error::Kind::invalid_argument:
      return "invalid_argument";
    case Error::Kind::body:
      return "body";
    case Error::Kind::network:
      return "network";
    case Error::Kind::tls:
      return "tls";
    case Error::Kind::service:
      return "service";
    case Error::Kind::checksum_mismatch:
      return "checksum_mismatch";
    case Error::Kind::protocol:
      return "protocol";
    case Error::Kind::timeout:
      return "timeout";
    case Error::Kind::cancelled:
      return "cancelled";
  }
  return "unknown";
}

// "service error 400 BadDigest: The CRC32 you specified ... (request id 1234)". The kind name is spelt with
// spaces ("invalid argument error") because the line is for people; to_string(kind) keeps the identifier.
std::string Error::to_string() const {
  std::string text;
  for (char c : s3up::to_string(kind)) text.push_back(c == '_' ? ' ' : c);
  text += " error";
  if (http_status != 0) text += " " + std::to_string(http_status);
  if (!code.empty()) text += " " + code;
  if (!message.empty()) text += ": " + message;
  if (!request_id.empty()) text += " (request id " + request_id + ")";
  if (attempts > 1) text += " (after " + std::to_string(attempts) + " attempts)";
  return text;
}

Error make_error(Error::Kind kind, std::string code, std::string message) {
  Error error;
  error.kind = kind;
  error.code = std::move(code);
  error.message = std::move(message);
  return error;
}

Error timeout_error(std::string code, std::string message) {
  return make_error(Error::Kind::timeout, std::move(code), std::move(message));
}

Error cancelled_error() {
  return make_error(Error::Kind::cancelled, "cancelled", "the call was cancelled (Client::cancel)");
}

Error body_error(const BodyError& error) {
  switch (error.kind()) {
    case BodyError::Kind::read_failed:
      return make_error(Error::Kind::body, "BodyReadFailed", error.what());
    case BodyError::Kind::ended_early:
      return make_error(Error::Kind::body, "BodyEndedEarly", error.what());
    case BodyError::Kind::longer_than_declared:
      return make_error(Error::Kind::body, "BodyLongerThanDeclared", error.what());
    case BodyError::Kind::not_rewindable:
      return make_error(Error::Kind::body, "BodyNotRewindable", error.what());
    case BodyError::Kind::unknown_length:
      return make_error(Error::Kind::body, "BodyUnknownLength", error.what());
    case BodyError::Kind::invalid_argument:
      break;
  }
  return make_error(Error::Kind::invalid_argument, "InvalidArgument", error.what());
}

}  // namespace s3up
