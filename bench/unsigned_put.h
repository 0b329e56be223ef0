// bench/unsigned_put.h: the SigV4 signature of the plain PUT that the benchmark's own senders
// (raw_curl_put.h, ingest_put.h) make: path-style, UNSIGNED-PAYLOAD, signed now, with the mock server's keys
// or any others.
#pragma once

#include <string>
#include <vector>

#include "s3up/sigv4.h"

namespace s3up::bench {

struct UnsignedPut {
  std::string path;                    // "/bucket/key", as signed (URI-encode it for the request line)
  std::vector<sigv4::Header> headers;  // host, the extra ones, x-amz-content-sha256 and x-amz-date
  std::string authorization;           // the Authorization header's value
};

UnsignedPut sign_unsigned_put(const std::string& host, const std::string& bucket, const std::string& key,
                              const std::string& region, const std::string& access_key,
                              const std::string& secret_key, std::vector<sigv4::Header> extra_headers = {});

}  // namespace s3up::bench
