// authorization_test.cpp: the Authorization header round trip and the strict parser, and amz_date.
#include <catch2/catch.hpp>

#include "s3_examples.h"

namespace sigv4 = s3up::sigv4;

namespace {
constexpr std::string_view put_signature = "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd";
constexpr std::string_view put_authorization =
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
    "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
    "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd";
}  // namespace

TEST_CASE("authorization_header uses ', ' between components (reference 3.1)") {
  CHECK(sigv4::authorization_header(s3_examples::access_key_id, s3_examples::scope(),
                                    "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                                    s3_examples::signature_of(put_signature)) == put_authorization);
}

TEST_CASE("parse_authorization round trip") {
  const auto parsed = sigv4::parse_authorization(put_authorization);
  REQUIRE(parsed);
  CHECK(parsed->access_key_id == "AKIAIOSFODNN7EXAMPLE");
  CHECK(parsed->scope.date == "20130524");
  CHECK(parsed->scope.region == "us-east-1");
  CHECK(parsed->scope.service == "s3");
  CHECK(parsed->scope.to_string() == "20130524/us-east-1/s3/aws4_request");
  CHECK(parsed->signed_headers == std::vector<std::string>{"date", "host", "x-amz-content-sha256",
                                                           "x-amz-date", "x-amz-storage-class"});
  CHECK(parsed->signature == put_signature);
}

TEST_CASE("parse_authorization accepts the documented ',' separator and any component order") {
  const auto compact = sigv4::parse_authorization(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
      "SignedHeaders=host;x-amz-date,Signature="
      "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  REQUIRE(compact);
  CHECK(compact->access_key_id == "AKIDEXAMPLE");
  CHECK(compact->scope.service == "service");
  CHECK(compact->signed_headers == std::vector<std::string>{"host", "x-amz-date"});
  CHECK(compact->signature == "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");

  const auto reordered = sigv4::parse_authorization(
      "AWS4-HMAC-SHA256 Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31, "
      "SignedHeaders=Host;X-Amz-Date, Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request");
  REQUIRE(reordered);
  CHECK(reordered->signed_headers == std::vector<std::string>{"host", "x-amz-date"});  // lowercased
}

TEST_CASE("parse_authorization rejects malformed headers") {
  const std::string sig = "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd";
  const std::string cred = "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request";
  const std::string sh = "SignedHeaders=host;x-amz-date";
  const std::vector<std::string> bad = {
      "",
      "AWS4-HMAC-SHA256",
      "AWS4-HMAC-SHA1 " + cred + ", " + sh + ", " + sig,                  // wrong algorithm
      "AWS4-HMAC-SHA256" + cred + ", " + sh + ", " + sig,                 // no space after the algorithm
      "AWS4-HMAC-SHA256 " + cred + ", " + sh,                             // missing signature
      "AWS4-HMAC-SHA256 " + sh + ", " + sig,                              // missing credential
      "AWS4-HMAC-SHA256 " + cred + ", " + sig,                            // missing signed headers
      "AWS4-HMAC-SHA256 " + cred + ", " + cred + ", " + sh + ", " + sig,  // repeated component
      "AWS4-HMAC-SHA256 " + cred + ", " + sh + ", " + sig + ", Extra=1",  // unknown component
      "AWS4-HMAC-SHA256 " + cred + ", " + sh + ", " + sig + ",",          // empty component
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3, " + sh + ", " +
          sig,  // 4 parts
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request/x, " + sh + ", " +
          sig,
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws5_request, " + sh + ", " +
          sig,
      "AWS4-HMAC-SHA256 Credential=/20130524/us-east-1/s3/aws4_request, " + sh + ", " + sig,     // empty akid
      "AWS4-HMAC-SHA256 Credential=AKID/2013052/us-east-1/s3/aws4_request, " + sh + ", " + sig,  // bad date
      "AWS4-HMAC-SHA256 Credential=AKID/2013052x/us-east-1/s3/aws4_request, " + sh + ", " + sig,
      "AWS4-HMAC-SHA256 Credential=AKID/20130524//s3/aws4_request, " + sh + ", " + sig,  // empty region
      "AWS4-HMAC-SHA256 " + cred + ", SignedHeaders=, " + sig,                           // empty list
      "AWS4-HMAC-SHA256 " + cred + ", SignedHeaders=host;;x-amz-date, " + sig,           // empty name
      "AWS4-HMAC-SHA256 " + cred + ", " + sh + ", Signature=98ad72",                     // short signature
      "AWS4-HMAC-SHA256 " + cred + ", " + sh +
          ", Signature=98AD721746DA40C64F1A55B78F14C238D841EA1380CD77A1B5971AF0ECE108BD",  // not lowercase
                                                                                           // hex
      "AWS4-HMAC-SHA256 " + cred + ", " + sh +
          ", Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bz",  // not hex
      "AWS4-HMAC-SHA256 " + cred + " " + sh + " " + sig,                                   // no commas
  };
  for (const auto& header : bad) {
    INFO(header);
    CHECK_FALSE(sigv4::parse_authorization(header));
  }
}

TEST_CASE("amz_date formats UTC (values from Python calendar.timegm)") {
  CHECK(sigv4::amz_date(0) == "19700101T000000Z");
  CHECK(sigv4::amz_date(1369353600) == "20130524T000000Z");
  CHECK(sigv4::amz_date(1440938160) == "20150830T123600Z");
  CHECK(sigv4::amz_date(951868799) == "20000229T235959Z");
  CHECK(sigv4::amz_date(2147483648) == "20380119T031408Z");
}
