// cli/json_output.h: the JSON that `s3up cp --output json` prints: one object per upload, strings escaped
// per RFC 8259, so that jq, Python's json module and friends read any key, ETag or file name.
#pragma once

#include <string>
#include <string_view>

#include "s3up/transfer.h"

namespace s3up::cli {

// text as a JSON string, quotes included: '"' and '\' escaped, control characters as \n, \t... or \u00XX,
// UTF-8 passed through, and each byte of an invalid UTF-8 sequence as U+FFFD (JSON text must be UTF-8).
std::string json_string(std::string_view text);

// {"bucket":...,"key":...,"bytes":N,"seconds":S,"etag":...,"checksum_algorithm":...,"checksum":...,
//  "checksum_type":...,"checksum_location":...,"parts":N,"attempts":N}, one line, no trailing newline. The
// checksum fields are null for an upload without a checksum.
std::string upload_json(std::string_view bucket, std::string_view key, const UploadResult& result,
                        double seconds);

}  // namespace s3up::cli
