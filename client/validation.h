// client/validation.h: bucket names, object keys and caller-given header values checked before anything is
// sent.
#pragma once

#include <optional>
#include <string_view>

#include "s3up/client.h"

namespace s3up {

// S3's general-purpose bucket naming rules; Error{invalid_argument} naming the broken rule.
std::optional<Error> validate_bucket(std::string_view bucket);
// Non-empty, at most 1024 bytes of well-formed UTF-8, no control characters (CR/LF would split the request
// line).
std::optional<Error> validate_key(std::string_view key);
// A header value must not be able to end its header early or start a new one: no control character but tab.
std::optional<Error> validate_header_value(std::string_view name, std::string_view value);

}  // namespace s3up
