// client/validation.h: bucket names and object keys checked before anything is sent.
#pragma once

#include <optional>
#include <string_view>

#include "s3up/client.h"

namespace s3up {

// S3's general-purpose bucket naming rules; Error{invalid_argument} naming the broken rule.
std::optional<Error> validate_bucket(std::string_view bucket);
// Non-empty, at most 1024 bytes, no control characters (CR/LF would split the request line).
std::optional<Error> validate_key(std::string_view key);

}  // namespace s3up
