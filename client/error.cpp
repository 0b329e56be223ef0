// error.cpp: the text forms of Error and Error::Kind, one line for people and logs, and the Error made from
// a BodyError.
#include <string>
#include <string_view>

#include "client/http_exchange.h"
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
  return text;
}

Error body_error(const BodyError& error) {
  Error out;
  out.kind = Error::Kind::body;
  switch (error.kind()) {
    case BodyError::Kind::read_failed:
      out.code = "BodyReadFailed";
      break;
    case BodyError::Kind::ended_early:
      out.code = "BodyEndedEarly";
      break;
    case BodyError::Kind::longer_than_declared:
      out.code = "BodyLongerThanDeclared";
      break;
    case BodyError::Kind::not_rewindable:
      out.code = "BodyNotRewindable";
      break;
    case BodyError::Kind::unknown_length:
      out.code = "BodyUnknownLength";
      break;
    case BodyError::Kind::invalid_argument:
      out.kind = Error::Kind::invalid_argument;
      out.code = "InvalidArgument";
      break;
  }
  out.message = error.what();
  return out;
}

}  // namespace s3up
