// client/request_signer.h: turns a method, target, headers and payload hash into a SigV4-signed request
// whose header list is exactly what goes on the wire.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "client/endpoint.h"
#include "s3up/sigv4.h"

namespace s3up {

struct SignedOutgoingRequest {
  std::string method;
  RequestTarget target;
  // Every signed header, as sent: host, x-amz-date, x-amz-content-sha256, x-amz-security-token and the
  // caller's (x-amz-*, content-md5, content-type, content-encoding). Never content-length, expect,
  // transfer-encoding, user-agent or accept: curl may add, change or drop those.
  std::vector<sigv4::Header> headers;
  std::string payload_hash;       // the x-amz-content-sha256 value
  std::string authorization;      // the Authorization header value: contains the signature, never log it
  std::string canonical_request;  // safe to log at trace: no secret, no signature
  sigv4::CredentialScope scope;
  std::string amz_date;
  sigv4::Signature seed_signature;  // the streaming seed for the chunk signer; never log it
  sigv4::SigningKey signing_key;    // the chunk signer's key, derived once with the seed; never log it
};

SignedOutgoingRequest sign_outgoing_request(std::string method, RequestTarget target,
                                            std::vector<sigv4::Header> headers, std::string payload_hash,
                                            const sigv4::Credentials& credentials, std::string_view region,
                                            std::int64_t unix_seconds);

}  // namespace s3up
