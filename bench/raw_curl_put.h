// bench/raw_curl_put.h: the yardstick of the end-to-end benchmark: a PUT of a file's bytes with libcurl at
// its default settings, as `curl -T FILE` sends it (CURLOPT_UPLOAD, a read callback calling fread, curl's
// default upload buffer, its Expect: 100-continue), signed with SigV4 for UNSIGNED-PAYLOAD and no checksum.
#pragma once

#include <cstdint>
#include <string>

namespace s3up::bench {

struct RawPutTarget {
  std::string endpoint_url;  // "http://127.0.0.1:PORT" or "https://..."
  std::string bucket;
  std::string key;
  std::string access_key;
  std::string secret_key;
  std::string region;
  std::string ca_bundle;  // for HTTPS; empty: curl's default
};

struct RawPutResult {
  long http_status = 0;
  std::string error;  // curl's error text when the transfer failed
  std::uint64_t uploaded = 0;
};

RawPutResult raw_curl_put(const RawPutTarget& target, const std::string& file_path);

}  // namespace s3up::bench
