// s3_examples.h: the shared inputs of the AWS S3 SigV4 documentation examples (reference §4): credentials,
// date and scope, and helpers to build the requests they sign.
#pragma once

#include <string>

#include "s3up/sigv4.h"

namespace s3_examples {

inline constexpr std::string_view access_key_id = "AKIAIOSFODNN7EXAMPLE";
inline constexpr std::string_view secret_access_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
inline constexpr std::string_view amz_date = "20130524T000000Z";

inline s3up::sigv4::CredentialScope scope() {
  return {"20130524", "us-east-1", "s3"};
}

inline s3up::sigv4::Credentials credentials() {
  return {std::string(access_key_id), std::string(secret_access_key), ""};
}

inline s3up::sigv4::Signature signature_of(std::string_view hex) {
  s3up::sigv4::Signature signature{};
  std::copy(hex.begin(), hex.end(), signature.begin());
  return signature;
}

inline std::string sha256_hex(std::string_view text) {
  return s3up::compute_checksum(s3up::ChecksumAlgorithm::sha256, text).hex();
}

}  // namespace s3_examples
