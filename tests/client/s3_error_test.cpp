// s3_error_test.cpp: parse_s3_error on S3 error documents shaped like the ones in the wire reference §7, and
// Error's text forms. Expected fields are the literal element texts of each sample.
#include <catch2/catch.hpp>

#include <string>

#include "s3up/client.h"

using s3up::parse_s3_error;

TEST_CASE("parse_s3_error reads a BadDigest error for a checksum trailer", "[client][s3_error]") {
  const std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<Error><Code>BadDigest</Code><Message>The CRC32 you specified did not match the calculated "
      "checksum.</Message><RequestId>4442587FB7D0A2F9</RequestId><HostId>"
      "nQ5Av3uNRmK9SFIsG7yhwzAAq1aFvPuqxrW2m4l6bDSAjpUvjVU2djDg9j+I4nrFLHGk0v2ZcH0=</HostId></Error>";
  auto body = parse_s3_error(xml);
  REQUIRE(body);
  CHECK(body->code == "BadDigest");
  CHECK(body->message == "The CRC32 you specified did not match the calculated checksum.");
  CHECK(body->request_id == "4442587FB7D0A2F9");
  CHECK(body->host_id == "nQ5Av3uNRmK9SFIsG7yhwzAAq1aFvPuqxrW2m4l6bDSAjpUvjVU2djDg9j+I4nrFLHGk0v2ZcH0=");
}

TEST_CASE("parse_s3_error skips extra elements of SignatureDoesNotMatch", "[client][s3_error]") {
  // Shaped like the real AWS bodies quoted in minio #2696/#2986: multi-line StringToSign and
  // CanonicalRequest, escaped characters, and the ids after them.
  const std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match "
      "the signature you provided. Check your key and signing method.</Message>"
      "<AWSAccessKeyId>AKIAIOSFODNN7EXAMPLE</AWSAccessKeyId>"
      "<StringToSign>AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
      "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d</StringToSign>"
      "<SignatureProvided>98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd</"
      "SignatureProvided>"
      "<StringToSignBytes>41 57 53 34 2d 48 4d 41 43</StringToSignBytes>"
      "<CanonicalRequest>PUT\n/test%24file.text\n\nhost:examplebucket.s3.amazonaws.com\n"
      "x-amz-meta-note:a &lt;b&gt; &amp; &quot;c&quot;\n</CanonicalRequest>"
      "<CanonicalRequestBytes>50 55 54 0a</CanonicalRequestBytes>"
      "<RequestId>TX0123456789ABCDEF</RequestId>"
      "<HostId>Zmf0gQ+vd8MHwhPlYZJx6iIBIS3ymIHgeMM4K8ggSdI=</HostId></Error>";
  auto body = parse_s3_error(xml);
  REQUIRE(body);
  CHECK(body->code == "SignatureDoesNotMatch");
  CHECK(body->message ==
        "The request signature we calculated does not match the signature you provided. Check your key and "
        "signing method.");
  CHECK(body->request_id == "TX0123456789ABCDEF");
  CHECK(body->host_id == "Zmf0gQ+vd8MHwhPlYZJx6iIBIS3ymIHgeMM4K8ggSdI=");
}

TEST_CASE("parse_s3_error unescapes entities and accepts whitespace and missing ids", "[client][s3_error]") {
  // IncompleteBody with NumberBytesExpected/Provided (reference §7.2), pretty-printed, leading whitespace
  // (S3 streams whitespace before a late error), no HostId.
  const std::string xml =
      "  \n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>\n  <Code>IncompleteBody</Code>\n"
      "  <Message>You did not provide the number of bytes specified by the Content-Length HTTP "
      "header</Message>\n"
      "  <NumberBytesExpected>100000</NumberBytesExpected>\n  "
      "<NumberBytesProvided>99999</NumberBytesProvided>\n"
      "  <RequestId>REQ&amp;1</RequestId>\n</Error>\n";
  auto body = parse_s3_error(xml);
  REQUIRE(body);
  CHECK(body->code == "IncompleteBody");
  CHECK(body->message ==
        "You did not provide the number of bytes specified by the Content-Length HTTP header");
  CHECK(body->request_id == "REQ&1");
  CHECK(body->host_id.empty());

  auto escaped = parse_s3_error(
      "<Error><Code>InvalidRequest</Code><Message>Value for x-amz-checksum-crc32 header is "
      "&apos;invalid&apos; "
      "&lt;&#65;&#x42;&gt;</Message></Error>");
  REQUIRE(escaped);
  CHECK(escaped->message == "Value for x-amz-checksum-crc32 header is 'invalid' <AB>");
  CHECK(escaped->request_id.empty());
}

TEST_CASE("parse_s3_error refuses what is not an Error document", "[client][s3_error]") {
  CHECK_FALSE(parse_s3_error(""));
  CHECK_FALSE(parse_s3_error("Not Found"));
  CHECK_FALSE(parse_s3_error("<html><body>502 Bad Gateway</body></html>"));
  CHECK_FALSE(parse_s3_error("<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name></ListBucketResult>"));
  CHECK_FALSE(parse_s3_error("<Errors><Code>X</Code></Errors>"));
  // Truncated (the 64 KiB body limit could cut one): not a complete document.
  CHECK_FALSE(parse_s3_error("<Error><Code>SlowDown</Code><Message>Please reduce"));
}

TEST_CASE("Error::to_string and to_string(Kind)", "[client][error]") {
  using Kind = s3up::Error::Kind;
  CHECK(s3up::to_string(Kind::invalid_argument) == "invalid_argument");
  CHECK(s3up::to_string(Kind::body) == "body");
  CHECK(s3up::to_string(Kind::network) == "network");
  CHECK(s3up::to_string(Kind::tls) == "tls");
  CHECK(s3up::to_string(Kind::service) == "service");
  CHECK(s3up::to_string(Kind::checksum_mismatch) == "checksum_mismatch");
  CHECK(s3up::to_string(Kind::protocol) == "protocol");
  CHECK(s3up::to_string(Kind::timeout) == "timeout");
  CHECK(s3up::to_string(Kind::cancelled) == "cancelled");

  s3up::Error error;
  error.kind = Kind::service;
  error.http_status = 400;
  error.code = "BadDigest";
  error.message = "The CRC32 you specified did not match the calculated checksum.";
  error.request_id = "1234";
  CHECK(error.to_string() ==
        "service error 400 BadDigest: The CRC32 you specified did not match the calculated checksum. "
        "(request id "
        "1234)");

  s3up::Error local;
  local.kind = Kind::invalid_argument;
  local.message = "bad key";
  CHECK(local.to_string() == "invalid argument error: bad key");

  // The attempts are told once there was more than one.
  s3up::Error retried;
  retried.kind = Kind::service;
  retried.http_status = 503;
  retried.code = "SlowDown";
  retried.message = "Please reduce your request rate.";
  retried.attempts = 1;
  CHECK(retried.to_string() == "service error 503 SlowDown: Please reduce your request rate.");
  retried.attempts = 3;
  CHECK(retried.to_string() ==
        "service error 503 SlowDown: Please reduce your request rate. (after 3 attempts)");
  s3up::Error deadline;
  deadline.kind = Kind::timeout;
  deadline.code = "request_timeout";
  deadline.message = "ran out";
  CHECK(deadline.to_string() == "timeout error request_timeout: ran out");
}
