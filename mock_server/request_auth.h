// request_auth.h: SigV4 verification of a request's Authorization header (reference §3.1): credential,
// scope, x-amz-date and clock skew, that every x-amz-* header and host are signed, and the signature itself,
// recomputed from the request exactly as received.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "s3_error.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

namespace s3up::mock {

struct HttpRequest;

// What a verified request hands to the body verifier: the chunk and trailer signatures chain from here.
struct VerifiedAuth {
  sigv4::SigningKey signing_key{};
  sigv4::CredentialScope scope;
  std::string amz_date;
  sigv4::Signature seed_signature{};
};

// path: the request path decoded once; query: the decoded query parameters.
std::optional<S3Error> verify_request_signature(const HttpRequest& request, const std::string& path,
                                                const std::vector<sigv4::QueryParameter>& query,
                                                const ServerOptions& options, VerifiedAuth& verified);

}  // namespace s3up::mock
