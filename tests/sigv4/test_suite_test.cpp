// test_suite_test.cpp: cases of AWS's generic aws-sig-v4-test-suite (reference §4.6; service "service").
// Only cases without path normalisation apply to an S3 signer.
#include <catch2/catch.hpp>

#include "s3_examples.h"

namespace sigv4 = s3up::sigv4;

namespace {

const sigv4::Credentials suite_credentials{"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", ""};
const sigv4::CredentialScope suite_scope{"20150830", "us-east-1", "service"};
constexpr std::string_view suite_date = "20150830T123600Z";

sigv4::RequestToSign vanilla(std::string method) {
  sigv4::RequestToSign request;
  request.method = std::move(method);
  request.path = "/";
  request.headers = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", std::string(suite_date)}};
  request.payload_hash = sigv4::empty_sha256_hex;
  return request;
}

void check_case(const sigv4::RequestToSign& request, std::string_view signed_headers,
                std::string_view canonical_request_hash, std::string_view signature) {
  const auto signed_request = sigv4::sign_request(request, suite_credentials, suite_scope, suite_date);
  CHECK(signed_request.signed_headers == signed_headers);
  CHECK(s3_examples::sha256_hex(signed_request.canonical_request) == canonical_request_hash);
  CHECK(sigv4::to_string_view(signed_request.signature) == signature);
  CHECK(signed_request.authorization ==
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/"
        "aws4_request, SignedHeaders=" +
            std::string(signed_headers) + ", Signature=" + std::string(signature));
}

}  // namespace

TEST_CASE("test suite get-vanilla") {
  check_case(vanilla("GET"), "host;x-amz-date",
             "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
             "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST_CASE("test suite post-vanilla") {
  check_case(vanilla("POST"), "host;x-amz-date",
             "553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87",
             "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
}

TEST_CASE("test suite get-vanilla-query-order-key-case") {
  auto request = vanilla("GET");
  request.query = {{"Param2", "value2"}, {"Param1", "value1"}};
  CHECK(sigv4::canonical_query_string(request.query) == "Param1=value1&Param2=value2");
  check_case(request, "host;x-amz-date", "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
             "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
}

TEST_CASE("test suite get-header-value-trim") {
  auto request = vanilla("GET");
  request.headers.push_back({"My-Header1", " value1"});
  request.headers.push_back({"My-Header2", " \"a   b   c\""});
  CHECK(sigv4::canonical_headers(request.headers) ==
        "host:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\nx-amz-date:20150830T123600Z\n");
  check_case(request, "host;my-header1;my-header2;x-amz-date",
             "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
             "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736");
}

TEST_CASE("test suite post-x-www-form-urlencoded") {
  const std::string payload_hash = "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e";
  REQUIRE(s3_examples::sha256_hex("Param1=value1") == payload_hash);
  auto request = vanilla("POST");
  request.headers.push_back({"Content-Type", "application/x-www-form-urlencoded"});
  request.headers.push_back({"Content-Length", "13"});
  request.headers.push_back({"x-amz-content-sha256", payload_hash});
  request.payload_hash = payload_hash;
  check_case(request, "content-length;content-type;host;x-amz-content-sha256;x-amz-date",
             "b1edd1d03544c25390e32085d55b57acc9a3961bb59415ff86c45c3d89d16cfb",
             "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b");
}
