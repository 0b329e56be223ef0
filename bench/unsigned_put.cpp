// bench/unsigned_put.cpp: see unsigned_put.h.
#include "unsigned_put.h"

#include <cstdint>
#include <ctime>
#include <utility>

namespace s3up::bench {

UnsignedPut sign_unsigned_put(const std::string& host, const std::string& bucket, const std::string& key,
                              const std::string& region, const std::string& access_key,
                              const std::string& secret_key, std::vector<sigv4::Header> extra_headers) {
  const std::string amz_date = sigv4::amz_date(static_cast<std::int64_t>(std::time(nullptr)));
  sigv4::RequestToSign request;
  request.method = "PUT";
  request.path = "/" + bucket + "/" + key;
  request.headers.push_back({"host", host});
  for (sigv4::Header& header : extra_headers) request.headers.push_back(std::move(header));
  request.headers.push_back({"x-amz-content-sha256", std::string(sigv4::unsigned_payload)});
  request.headers.push_back({"x-amz-date", amz_date});
  request.payload_hash = sigv4::unsigned_payload;
  const sigv4::CredentialScope scope{amz_date.substr(0, 8), region};
  const sigv4::SignedRequest signed_request =
      sigv4::sign_request(request, {access_key, secret_key, ""}, scope, amz_date);
  return {std::move(request.path), std::move(request.headers), signed_request.authorization};
}

}  // namespace s3up::bench
