// endpoint_test.cpp: endpoint URL parsing, addressing and request targets. Expected URLs are written out by
// hand from RFC 3986 (unreserved characters stay, everything else is %XX once).
#include <catch2/catch.hpp>

#include <string>

#include "client/endpoint.h"
#include "client/validation.h"

using s3up::Addressing;
using s3up::parse_endpoint;

TEST_CASE("parse_endpoint: AWS, custom, IPv6 and path prefixes", "[client][endpoint]") {
  auto aws = parse_endpoint("https://s3.eu-west-1.amazonaws.com");
  REQUIRE(aws);
  CHECK(aws->https);
  CHECK(aws->host == "s3.eu-west-1.amazonaws.com");
  CHECK(aws->port == 443);
  CHECK(aws->default_port());
  CHECK(aws->path_prefix.empty());
  CHECK(aws->is_aws());
  CHECK(aws->authority(aws->host) == "s3.eu-west-1.amazonaws.com");

  auto local = parse_endpoint("http://127.0.0.1:9000");
  REQUIRE(local);
  CHECK_FALSE(local->https);
  CHECK(local->host == "127.0.0.1");
  CHECK(local->port == 9000);
  CHECK_FALSE(local->is_aws());
  CHECK(local->authority(local->host) == "127.0.0.1:9000");

  auto v6 = parse_endpoint("http://[::1]:9000/");
  REQUIRE(v6);
  CHECK(v6->host == "[::1]");
  CHECK(v6->port == 9000);
  CHECK(v6->path_prefix.empty());
  CHECK(v6->authority(v6->host) == "[::1]:9000");

  auto v6_default = parse_endpoint("https://[2001:DB8::1]");
  REQUIRE(v6_default);
  CHECK(v6_default->host == "[2001:db8::1]");
  CHECK(v6_default->port == 443);

  // Scheme and host are case-insensitive; an explicit default port is not repeated in Host.
  auto mixed = parse_endpoint("HTTPS://Storage.Example.COM:443/base/path/");
  REQUIRE(mixed);
  CHECK(mixed->host == "storage.example.com");
  CHECK(mixed->authority(mixed->host) == "storage.example.com");
  CHECK(mixed->path_prefix == "/base/path");

  auto http_default = parse_endpoint("http://minio.local:80");
  REQUIRE(http_default);
  CHECK(http_default->authority(http_default->host) == "minio.local");

  auto encoded = parse_endpoint("http://gw.local/a%20b");
  REQUIRE(encoded);
  CHECK(encoded->path_prefix == "/a b");

  // amazonaws.com and the hosts under it are AWS (the one host table of detect_provider); look-alikes not.
  CHECK(parse_endpoint("https://amazonaws.com")->is_aws());
  CHECK_FALSE(parse_endpoint("https://s3.amazonaws.com.evil.example")->is_aws());
  CHECK_FALSE(parse_endpoint("https://notamazonaws.com")->is_aws());
  CHECK(parse_endpoint("https://s3.amazonaws.com")->is_aws());
}

TEST_CASE("parse_endpoint refuses malformed URLs with invalid_argument", "[client][endpoint]") {
  for (const char* url : {"",
                          "s3.amazonaws.com",
                          "ftp://host",
                          "http://",
                          "http://:9000",
                          "http://host:",
                          "http://host:0",
                          "http://host:65536",
                          "http://host:99999999999",
                          "http://host:9a",
                          "http://user@host",
                          "http://user:pw@host",
                          "http://[::1",
                          "http://[::1]x",
                          "http://[zz::1]",
                          "http://host/path?x=1",
                          "http://host#frag",
                          "http://ho st",
                          "http://host/%zz",
                          "http://.host",
                          "http://a..b"}) {
    INFO(url);
    auto endpoint = parse_endpoint(url);
    REQUIRE_FALSE(endpoint);
    CHECK(endpoint.error().kind == s3up::Error::Kind::invalid_argument);
    CHECK(endpoint.error().message.find("invalid endpoint URL") != std::string::npos);
  }
  // A password written into the URL is not repeated in the message, whatever else is wrong with it.
  for (const char* url : {"http://user:hunter2@host", "ftp://user:hunter2@host/x", "user:hunter2@host"}) {
    INFO(url);
    auto endpoint = parse_endpoint(url);
    REQUIRE_FALSE(endpoint);
    CHECK(endpoint.error().message.find("hunter2") == std::string::npos);
    CHECK(endpoint.error().message.find("@host") != std::string::npos);
  }
}

TEST_CASE("endpoint_for_display hides the user info and nothing else", "[client][endpoint]") {
  CHECK(s3up::endpoint_for_display("https://user:hunter2@host:9000/p?q=1") == "https://...@host:9000/p?q=1");
  CHECK(s3up::endpoint_for_display("user:hunter2@host") == "...@host");
  // An '@' after the authority (in the path or query) is no user info.
  CHECK(s3up::endpoint_for_display("http://host/a@b?c=d@e") == "http://host/a@b?c=d@e");
  CHECK(s3up::endpoint_for_display("http://127.0.0.1:9000") == "http://127.0.0.1:9000");
}

TEST_CASE("default endpoint and automatic addressing", "[client][endpoint]") {
  CHECK(s3up::default_endpoint_url("eu-central-1") == "https://s3.eu-central-1.amazonaws.com");

  auto aws = parse_endpoint("https://s3.eu-west-1.amazonaws.com").value();
  auto target = s3up::make_target(aws, Addressing::automatic, "my-bucket", "dir/my key");
  CHECK(target.host == "my-bucket.s3.eu-west-1.amazonaws.com");
  CHECK(target.path == "/dir/my key");
  CHECK(target.url == "https://my-bucket.s3.eu-west-1.amazonaws.com/dir/my%20key");

  // Dots break the wildcard certificate over HTTPS: path-style.
  auto dotted = s3up::make_target(aws, Addressing::automatic, "my.bucket", "k");
  CHECK(dotted.host == "s3.eu-west-1.amazonaws.com");
  CHECK(dotted.path == "/my.bucket/k");
  CHECK(dotted.url == "https://s3.eu-west-1.amazonaws.com/my.bucket/k");

  auto aws_http = parse_endpoint("http://s3.eu-west-1.amazonaws.com").value();
  CHECK(s3up::make_target(aws_http, Addressing::automatic, "my.bucket", "k").host ==
        "my.bucket.s3.eu-west-1.amazonaws.com");

  // Custom endpoints: path-style, Host with the port, signed as sent.
  auto local = parse_endpoint("http://127.0.0.1:9000").value();
  auto path_style = s3up::make_target(local, Addressing::automatic, "bucket", "a+b/c d~\xC3\xA9.txt");
  CHECK(path_style.host == "127.0.0.1:9000");
  CHECK(path_style.path == "/bucket/a+b/c d~\xC3\xA9.txt");
  CHECK(path_style.url == "http://127.0.0.1:9000/bucket/a%2Bb/c%20d~%C3%A9.txt");

  // Dot segments are data in S3 keys: kept as they are.
  CHECK(s3up::make_target(local, Addressing::automatic, "bucket", "../x/./y").url ==
        "http://127.0.0.1:9000/bucket/../x/./y");

  // Bucket requests.
  CHECK(s3up::make_target(local, Addressing::automatic, "bucket", "").path == "/bucket");
  CHECK(s3up::make_target(aws, Addressing::automatic, "my-bucket", "").path == "/");

  // Forced styles.
  CHECK(s3up::make_target(local, Addressing::virtual_hosted, "bucket", "k").url ==
        "http://bucket.127.0.0.1:9000/k");
  CHECK(s3up::make_target(aws, Addressing::path_style, "my-bucket", "k").url ==
        "https://s3.eu-west-1.amazonaws.com/my-bucket/k");

  auto prefixed = parse_endpoint("http://gw.local:8080/s3/").value();
  auto under_prefix = s3up::make_target(prefixed, Addressing::automatic, "bucket", "key");
  CHECK(under_prefix.path == "/s3/bucket/key");
  CHECK(under_prefix.url == "http://gw.local:8080/s3/bucket/key");
}

TEST_CASE("dns_compatible_bucket", "[client][endpoint]") {
  CHECK(s3up::dns_compatible_bucket("my-bucket-01", true));
  CHECK(s3up::dns_compatible_bucket("abc", true));
  CHECK_FALSE(s3up::dns_compatible_bucket("ab", true));
  CHECK_FALSE(s3up::dns_compatible_bucket(std::string(64, 'a'), true));
  CHECK(s3up::dns_compatible_bucket(std::string(63, 'a'), true));
  CHECK_FALSE(s3up::dns_compatible_bucket("my.bucket", true));
  CHECK(s3up::dns_compatible_bucket("my.bucket", false));
  CHECK_FALSE(s3up::dns_compatible_bucket("My-Bucket", false));
  CHECK_FALSE(s3up::dns_compatible_bucket("-bucket", false));
  CHECK_FALSE(s3up::dns_compatible_bucket("bucket-", false));
  CHECK_FALSE(s3up::dns_compatible_bucket("my_bucket", false));
}

TEST_CASE("bucket and key validation", "[client][validation]") {
  for (const char* good : {"my-bucket", "abc", "a.b.c", "bucket-123", "0bucket9"}) {
    INFO(good);
    CHECK_FALSE(s3up::validate_bucket(good));
  }
  CHECK_FALSE(s3up::validate_bucket(std::string(63, 'b')));
  for (const std::string& bad :
       {std::string("ab"), std::string(64, 'b'), std::string("My-Bucket"), std::string("my_bucket"),
        std::string("-bucket"), std::string("bucket-"), std::string(".bucket"), std::string("my..bucket"),
        std::string("192.168.5.4"), std::string("xn--bucket"), std::string("sthree-bucket"),
        std::string("amzn-s3-demo-bucket"), std::string("bucket-s3alias"), std::string("bucket--ol-s3"),
        std::string("bucket.mrap"), std::string("bucket--x-s3"), std::string("bucket--table-s3"),
        std::string("buck et"), std::string("")}) {
    INFO(bad);
    auto error = s3up::validate_bucket(bad);
    REQUIRE(error);
    CHECK(error->kind == s3up::Error::Kind::invalid_argument);
  }

  CHECK_FALSE(s3up::validate_key("a"));
  CHECK_FALSE(s3up::validate_key("dir/\xE6\x97\xA5\xE6\x9C\xAC/\xC3\xBC ../x"));
  CHECK_FALSE(s3up::validate_key(std::string(1024, 'k')));
  for (const std::string& bad :
       {std::string(""), std::string(1025, 'k'), std::string("a\nb"), std::string("a\rb"),
        std::string("a\x01"
                    "b"),
        std::string("a\x7f"), std::string("tab\there"), std::string(1, '\0')}) {
    INFO(bad.size());
    auto error = s3up::validate_key(bad);
    REQUIRE(error);
    CHECK(error->kind == s3up::Error::Kind::invalid_argument);
  }
}

TEST_CASE("keys: 1024 bytes of UTF-8, not characters, and only well-formed UTF-8", "[client][validation]") {
  // U+65E5 is three bytes (E6 97 A5): 341 of them are 1023 bytes, 342 are 1026.
  std::string three_byte;
  for (int i = 0; i < 341; ++i) three_byte += "\xE6\x97\xA5";
  CHECK_FALSE(s3up::validate_key(three_byte));
  CHECK_FALSE(s3up::validate_key(three_byte + "k"));  // 1024 bytes
  auto too_long = s3up::validate_key(three_byte + "\xE6\x97\xA5");
  REQUIRE(too_long);
  CHECK(too_long->message.find("1026") != std::string::npos);
  CHECK(s3up::validate_key(three_byte + "kk"));  // 1025 bytes

  CHECK_FALSE(s3up::validate_key("\xF0\x9F\x98\x80 emoji"));  // U+1F600, four bytes
  CHECK_FALSE(s3up::validate_key("\xF4\x8F\xBF\xBF"));        // U+10FFFF, the last code point
  CHECK_FALSE(s3up::validate_key("\xED\x9F\xBF"));            // U+D7FF, just below the surrogates
  for (const std::string& bad : {std::string("\xFF"),         // never in UTF-8
                                 std::string("a\x80"
                                             "b"),                 // a lone continuation byte
                                 std::string("\xC3"),              // cut short
                                 std::string("\xE6\x97"),          // cut short
                                 std::string("\xC0\xAF"),          // overlong '/'
                                 std::string("\xE0\x80\xAF"),      // overlong '/'
                                 std::string("\xED\xA0\x80"),      // U+D800, a surrogate
                                 std::string("\xF4\x90\x80\x80"),  // above U+10FFFF
                                 std::string("\xF8\x88\x80\x80\x80")}) {
    INFO(bad.size());
    auto error = s3up::validate_key(bad);
    REQUIRE(error);
    CHECK(error->kind == s3up::Error::Kind::invalid_argument);
    CHECK(error->code == "InvalidKey");
    CHECK(error->message.find("UTF-8") != std::string::npos);
  }
  // The reason is named for the other rules too.
  CHECK(s3up::validate_key("")->message.find("empty") != std::string::npos);
  CHECK(s3up::validate_key("a\r\nb")->message.find("control character") != std::string::npos);
  CHECK(s3up::validate_bucket("Bad_Bucket")->message.find("lowercase") != std::string::npos);
  CHECK(s3up::validate_bucket("192.168.5.4")->message.find("IP address") != std::string::npos);
}
