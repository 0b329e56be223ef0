// tests/cli/aws_config_test.cpp: the AWS shared configuration file parser (cli/aws_config.h) on its own:
// comments, whitespace, nested "s3 =" values, profile section names in each file, and errors that never quote
// a line. The expected values follow botocore's configloader, checked by hand against its rules.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/aws_config.h"
#include "cli_support.h"

using s3up::cli::ConfigFileError;
using s3up::cli::find_section;
using s3up::cli::load_profile;
using s3up::cli::parse_ini;

TEST_CASE(
    "parse_ini: comments, whitespace, both delimiters, lowercase keys and nested values in file order") {
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
      "  Signature_Version = s3v4\n"
      "\n"
      "  addressing_style=path\n"
      "ca_bundle = /etc/ca.pem\n"
      "[ profile  dev ]\n"
      "region = us-west-2\n",
      "config");
  // As botocore.configloader.raw_config_parse reads the same text (checked with botocore 1.43): top-level
  // keys lowercased, nested keys as written, section names as written between the brackets.
  REQUIRE(file.size() == 2);
  CHECK(file[0].first == "default");
  CHECK(file[1].first == " profile  dev ");
  const auto& section = file[0].second;
  CHECK(section.at("region") == "eu-west-3");
  CHECK(section.at("output") == "json");
  CHECK(section.at("endpoint_url") == "http://host:9000/?a=b");  // split at the first '=' only
  CHECK(section.at("s3") == "");
  CHECK(section.at("s3.endpoint_url") == "http://nested:9000");
  CHECK(section.at("s3.addressing_style") == "path");
  CHECK(section.at("s3.Signature_Version") == "s3v4");
  CHECK(section.count("s3.signature_version") == 0);
  CHECK(section.at("ca_bundle") == "/etc/ca.pem");  // back at the top level after the nested lines
  CHECK(section.size() == 8);
  REQUIRE(find_section(file, " profile  dev ") != nullptr);
  CHECK(find_section(file, " profile  dev ")->at("region") == "us-west-2");
  CHECK(find_section(file, "profile  dev") == nullptr);
}

TEST_CASE("parse_ini: an indented line under a key with a value continues that value") {
  const auto file = parse_ini("[a]\nkey = first\n  second\n", "f");
  REQUIRE(find_section(file, "a") != nullptr);
  CHECK(find_section(file, "a")->at("key") == "first\nsecond");
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
  // configparser's strict mode, which botocore uses, raises DuplicateSectionError and DuplicateOptionError
  // (botocore: ConfigParseError) for these; checked with botocore.configloader.load_config.
  SECTION("a repeated section") {
    try {
      parse_ini("[default]\nregion = a\n[dev]\n[default]\noutput = json\n", "/home/me/.aws/config");
      FAIL("no error");
    } catch (const ConfigFileError& error) {
      CHECK(std::string(error.what()).find("/home/me/.aws/config, line 4") != std::string::npos);
    }
  }
  SECTION("a repeated key, in any case") {
    try {
      parse_ini("[default]\naws_secret_access_key = " + secret + "\nAWS_Secret_Access_Key = x\n",
                "credentials");
      FAIL("no error");
    } catch (const ConfigFileError& error) {
      const std::string message = error.what();
      CHECK(message.find("credentials, line 3") != std::string::npos);
      CHECK(message.find(secret) == std::string::npos);
    }
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

TEST_CASE("load_profile: of [default] and [profile default], the later section replaces the earlier") {
  // botocore.configloader.load_config on both orders gives {'region': 'b'} and {'region': 'a', 'output':
  // 'json'}: the later section wins entirely, nothing of the earlier one is merged in.
  s3up::test::TempDir dir;
  const s3up::cli::SharedConfigPaths paths{(dir / "config").string(), (dir / "no-credentials").string()};
  SECTION("[profile default] later") {
    std::ofstream(paths.config) << "[default]\nregion = a\noutput = json\n[profile default]\nregion = b\n";
    auto profile = load_profile(paths, "default");
    REQUIRE(profile);
    CHECK(profile->values == s3up::cli::IniSection{{"region", "b"}});
  }
  SECTION("[default] later") {
    std::ofstream(paths.config) << "[profile default]\nregion = b\n[default]\nregion = a\noutput = json\n";
    auto profile = load_profile(paths, "default");
    REQUIRE(profile);
    CHECK(profile->values == s3up::cli::IniSection{{"region", "a"}, {"output", "json"}});
  }
}

TEST_CASE("load_profile: [ profile dev ] is not the profile dev") {
  // botocore's build_profile_map only takes sections whose name starts with "profile": " profile dev " does
  // not, so load_config has no profile dev.
  s3up::test::TempDir dir;
  const s3up::cli::SharedConfigPaths paths{(dir / "config").string(), (dir / "no-credentials").string()};
  std::ofstream(paths.config) << "[ profile dev ]\nregion = a\n[profile  other ]\nregion = b\n";
  CHECK_FALSE(load_profile(paths, "dev"));
  auto other = load_profile(paths, "other");  // shlex.split("profile  other ") is ["profile", "other"]
  REQUIRE(other);
  CHECK(other->values.at("region") == "b");
}

TEST_CASE("load_profile: services naming a missing or empty section is an error, as botocore raises") {
  s3up::test::TempDir dir;
  const s3up::cli::SharedConfigPaths paths{(dir / "config").string(), (dir / "no-credentials").string()};
  SECTION("missing") {
    std::ofstream(paths.config)
        << "[default]\nservices = local\n[services other]\ns3 =\n  endpoint_url = x\n";
  }
  SECTION("empty") {
    std::ofstream(paths.config) << "[default]\nservices = local\n[services local]\n";
  }
  try {
    load_profile(paths, "default");
    FAIL("no error");
  } catch (const ConfigFileError& error) {
    const std::string message = error.what();
    CHECK(message.find(paths.config) != std::string::npos);
    CHECK(message.find("\"local\"") != std::string::npos);
  }
}

TEST_CASE("load_profile: a configuration file that is a directory is an error, a missing one is no file") {
  s3up::test::TempDir dir;
  std::filesystem::create_directory(dir / "config");
  const s3up::cli::SharedConfigPaths paths{(dir / "config").string(), (dir / "no-credentials").string()};
  try {
    load_profile(paths, "default");
    FAIL("no error");
  } catch (const ConfigFileError& error) {
    CHECK(std::string(error.what()).find(paths.config + " is a directory") != std::string::npos);
  }
  const s3up::cli::SharedConfigPaths missing{(dir / "no-config").string(), (dir / "no-credentials").string()};
  CHECK_FALSE(load_profile(missing, "default"));
}
