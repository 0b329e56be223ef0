// tests/cli/aws_config_test.cpp: the AWS shared configuration file parser (cli/aws_config.h) on its own:
// comments, whitespace, nested "s3 =" values, profile section names in each file, and errors that never quote
// a line. The expected values follow botocore's configloader, checked by hand against its rules.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "cli/aws_config.h"
#include "cli_support.h"

using s3up::cli::ConfigFileError;
using s3up::cli::load_profile;
using s3up::cli::parse_ini;

TEST_CASE("parse_ini: comments, whitespace, both delimiters, lowercase keys and nested values") {
  const auto file = parse_ini(
      "# a comment\n"
      "; another comment\n"
      "[default]   # text after the header is ignored, as configparser does\n"
      "  region   =   eu-west-3  \r\n"
      "Output: json\n"
      "   # an indented comment\n"
      "endpoint_url = http://host:9000/?a=b\n"
      "s3 =\n"
      "  endpoint_url = http://nested:9000\n"
      "\n"
      "  addressing_style=path\n"
      "ca_bundle = /etc/ca.pem\n"
      "[ profile  dev ]\n"
      "region = us-west-2\n",
      "config");
  REQUIRE(file.count("default") == 1);
  const auto& section = file.at("default");
  CHECK(section.at("region") == "eu-west-3");
  CHECK(section.at("output") == "json");
  CHECK(section.at("endpoint_url") == "http://host:9000/?a=b");  // split at the first '=' only
  CHECK(section.at("s3") == "");
  CHECK(section.at("s3.endpoint_url") == "http://nested:9000");
  CHECK(section.at("s3.addressing_style") == "path");
  CHECK(section.at("ca_bundle") == "/etc/ca.pem");  // back at the top level after the nested lines
  CHECK(section.size() == 7);
  REQUIRE(file.count("profile  dev") == 1);
  CHECK(file.at("profile  dev").at("region") == "us-west-2");
}

TEST_CASE("parse_ini: an indented line under a key with a value continues that value") {
  const auto file = parse_ini("[a]\nkey = first\n  second\n", "f");
  CHECK(file.at("a").at("key") == "first\nsecond");
}

TEST_CASE("parse_ini: errors name the file and the line, never the line's text") {
  const std::string secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  SECTION("a key before any section") {
    try {
      parse_ini("aws_secret_access_key = " + secret + "\n", "/home/me/.aws/credentials");
      FAIL("no error");
    } catch (const ConfigFileError& error) {
      const std::string message = error.what();
      CHECK(message.find("/home/me/.aws/credentials, line 1") != std::string::npos);
      CHECK(message.find(secret) == std::string::npos);
    }
  }
  SECTION("a line that is neither a header, a key nor a comment") {
    try {
      parse_ini("[default]\n\n" + secret + "\n", "credentials");
      FAIL("no error");
    } catch (const ConfigFileError& error) {
      const std::string message = error.what();
      CHECK(message.find("credentials, line 3") != std::string::npos);
      CHECK(message.find(secret) == std::string::npos);
    }
  }
  SECTION("a nested line without '='") {
    CHECK_THROWS_AS(parse_ini("[default]\ns3 =\n  endpoint_url\n", "config"), ConfigFileError);
  }
}

TEST_CASE("load_profile: profile NAME sections in config, NAME in credentials, the credentials file wins") {
  s3up::test::TempDir dir;
  const s3up::cli::SharedConfigPaths paths{(dir / "config").string(), (dir / "credentials").string()};
  std::ofstream(paths.config) << "[default]\nregion = us-east-2\n"
                                 "[dev]\nregion = not-a-profile-in-the-config-file\n"
                                 "[profile dev]\nregion = eu-west-1\naws_access_key_id = CONFIGKEY\n"
                                 "services = local\n"
                                 "[profile config-only]\nregion = ap-south-1\n"
                                 "[services local]\ns3 =\n  endpoint_url = http://127.0.0.1:9000\n";
  std::ofstream(paths.credentials) << "[dev]\naws_access_key_id = CREDKEY\naws_secret_access_key = s\n"
                                      "[creds-only]\naws_access_key_id = K\n";

  auto dev = load_profile(paths, "dev");
  REQUIRE(dev);
  CHECK(dev->values.at("region") == "eu-west-1");
  CHECK(dev->values.at("aws_access_key_id") == "CREDKEY");
  CHECK(dev->values.at("aws_secret_access_key") == "s");
  CHECK(dev->services.at("s3.endpoint_url") == "http://127.0.0.1:9000");

  auto default_profile = load_profile(paths, "default");
  REQUIRE(default_profile);
  CHECK(default_profile->values.at("region") == "us-east-2");
  CHECK(default_profile->services.empty());

  REQUIRE(load_profile(paths, "config-only"));
  CHECK(load_profile(paths, "config-only")->values.at("region") == "ap-south-1");
  REQUIRE(load_profile(paths, "creds-only"));
  CHECK(load_profile(paths, "creds-only")->values.at("aws_access_key_id") == "K");
  CHECK_FALSE(load_profile(paths, "missing"));
  CHECK_FALSE(load_profile(paths, "local"));  // a [services local] section is not a profile

  // Neither file existing is no profile at all, not an error.
  const s3up::cli::SharedConfigPaths none{(dir / "no-config").string(), (dir / "no-credentials").string()};
  CHECK_FALSE(load_profile(none, "default"));
}
