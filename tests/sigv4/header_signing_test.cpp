// header_signing_test.cpp: single-chunk header signing against the S3 documentation examples
// (reference §4.2): canonical request text, its hash, the signature and the Authorization header.
#include <catch2/catch.hpp>

#include "s3_examples.h"

namespace sigv4 = s3up::sigv4;

namespace {

sigv4::RequestToSign get_request(std::string path, std::vector<sigv4::QueryParameter> query,
                                 std::vector<sigv4::Header> extra_headers) {
  sigv4::RequestToSign request;
  request.method = "GET";
  request.path = std::move(path);
  request.query = std::move(query);
  request.headers = {{"Host", "examplebucket.s3.amazonaws.com"},
                     {"x-amz-date", std::string(s3_examples::amz_date)},
                     {"x-amz-content-sha256", std::string(sigv4::empty_sha256_hex)}};
  for (auto& header : extra_headers) request.headers.push_back(std::move(header));
  request.payload_hash = sigv4::empty_sha256_hex;
  return request;
}

}  // namespace

TEST_CASE("PUT Object example: canonical request, hash, signature (reference 4.2)") {
  const std::string body_hash = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072";
  REQUIRE(s3_examples::sha256_hex("Welcome to Amazon S3.") == body_hash);
  sigv4::RequestToSign request;
  request.method = "PUT";
  request.path = "/test$file.text";
  // Deliberately unsorted and mixed-case: canonicalisation must sort and lowercase.
  request.headers = {{"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                     {"Host", "examplebucket.s3.amazonaws.com"},
                     {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                     {"x-amz-date", "20130524T000000Z"},
                     {"x-amz-content-sha256", body_hash}};
  request.payload_hash = body_hash;

  const std::string expected_canonical_request =
      "PUT\n"
      "/test%24file.text\n"
      "\n"
      "date:Fri, 24 May 2013 00:00:00 GMT\n"
      "host:examplebucket.s3.amazonaws.com\n"
      "x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072\n"
      "x-amz-date:20130524T000000Z\n"
      "x-amz-storage-class:REDUCED_REDUNDANCY\n"
      "\n"
      "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class\n"
      "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072";
  CHECK(sigv4::canonical_request(request) == expected_canonical_request);
  CHECK(s3_examples::sha256_hex(expected_canonical_request) ==
        "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");

  const auto signed_request =
      sigv4::sign_request(request, s3_examples::credentials(), s3_examples::scope(), s3_examples::amz_date);
  CHECK(signed_request.canonical_request == expected_canonical_request);
  CHECK(signed_request.string_to_sign ==
        "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
        "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
  CHECK(signed_request.signed_headers == "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  CHECK(signed_request.authorization ==
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
        "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
        "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  // The key it signed with, kept for a chunk signer: reference §4.1's S3 example signing key.
  CHECK(s3up::hex_encode(signed_request.signing_key) ==
        "dbb893acc010964918f1fd433add87c70e8b0db6be30c1fbeafefa5ec6ba8378");
}

TEST_CASE("the pieces compose to the same PUT Object signature (reference 4.2)") {
  const auto key = sigv4::derive_signing_key(s3_examples::secret_access_key, s3_examples::scope());
  const auto sts =
      sigv4::string_to_sign(s3_examples::amz_date, s3_examples::scope(),
                            "PUT\n/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\n"
                            "host:examplebucket.s3.amazonaws.com\n"
                            "x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b"
                            "803f8b072\nx-amz-date:20130524T000000Z\n"
                            "x-amz-storage-class:REDUCED_REDUNDANCY\n\n"
                            "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class\n"
                            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  CHECK(sigv4::to_string_view(sigv4::sign(key, sts)) ==
        "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
}

TEST_CASE("GET Object example with Range (reference 4.2)") {
  const auto request = get_request("/test.txt", {}, {{"Range", "bytes=0-9"}});
  const auto signed_request =
      sigv4::sign_request(request, s3_examples::credentials(), s3_examples::scope(), s3_examples::amz_date);
  CHECK(signed_request.signed_headers == "host;range;x-amz-content-sha256;x-amz-date");
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
}

TEST_CASE("GET Bucket lifecycle example: a key without value (reference 4.2)") {
  const auto request = get_request("/", {{"lifecycle", ""}}, {});
  CHECK(sigv4::canonical_query_string(request.query) == "lifecycle=");
  const auto signed_request =
      sigv4::sign_request(request, s3_examples::credentials(), s3_examples::scope(), s3_examples::amz_date);
  CHECK(signed_request.signed_headers == "host;x-amz-content-sha256;x-amz-date");
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "9766c798316ff2757b517bc739a67f6213b4ab36dd5da2f94eaebf79c77395ca");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
}

TEST_CASE("List objects example: query sorted (reference 4.2)") {
  const auto request = get_request("/", {{"prefix", "J"}, {"max-keys", "2"}}, {});
  CHECK(sigv4::canonical_query_string(request.query) == "max-keys=2&prefix=J");
  const auto signed_request =
      sigv4::sign_request(request, s3_examples::credentials(), s3_examples::scope(), s3_examples::amz_date);
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) ==
        "df57d21db20da04d7fa30298dd4488ba3a2b47ca3a489c74750e0f1e7df1b9b7");
  CHECK(sigv4::to_string_view(signed_request.signature) ==
        "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
}
