// request_signer.cpp: SigV4 header signing for each request (reference §3.1): the credential scope of the
// request's date, the canonical request over exactly the headers that are sent, and the Authorization header.
#include "client/request_signer.h"

#include <utility>

namespace s3up {

SignedOutgoingRequest sign_outgoing_request(std::string method, RequestTarget target,
                                            std::vector<sigv4::Header> headers, std::string payload_hash,
                                            const sigv4::Credentials& credentials, std::string_view region,
                                            std::int64_t unix_seconds) {
  SignedOutgoingRequest out;
  out.amz_date = sigv4::amz_date(unix_seconds);
  out.scope.date = out.amz_date.substr(0, 8);
  out.scope.region = std::string(region);

  // Host is signed exactly as curl sends it (we set it ourselves, :port included when non-default).
  out.headers.reserve(headers.size() + 4);
  out.headers.push_back({"host", target.host});
  out.headers.push_back({"x-amz-date", out.amz_date});
  out.headers.push_back({"x-amz-content-sha256", payload_hash});
  if (!credentials.session_token.empty()) {
    out.headers.push_back({"x-amz-security-token", credentials.session_token});
  }
  for (auto& header : headers) out.headers.push_back(std::move(header));

  // The request's strings are moved into what is signed and back out again, never copied: a request is
  // signed on every attempt.
  sigv4::RequestToSign request{std::move(method), std::move(target.path), std::move(target.query),
                               std::move(out.headers), std::move(payload_hash)};
  sigv4::SignedRequest signed_request = sigv4::sign_request(request, credentials, out.scope, out.amz_date);

  out.method = std::move(request.method);
  target.path = std::move(request.path);
  target.query = std::move(request.query);
  out.target = std::move(target);
  out.headers = std::move(request.headers);
  out.payload_hash = std::move(request.payload_hash);
  out.authorization = std::move(signed_request.authorization);
  out.canonical_request = std::move(signed_request.canonical_request);
  out.seed_signature = signed_request.signature;
  out.signing_key = signed_request.signing_key;
  return out;
}

}  // namespace s3up
