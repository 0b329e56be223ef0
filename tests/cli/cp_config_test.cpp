// tests/cli/cp_config_test.cpp: `s3up cp` configured the AWS CLI's way: profiles in ~/.aws/config and
// ~/.aws/credentials chosen by --profile or AWS_PROFILE, then flag > environment > profile for each setting.
// The mock server only accepts one key pair, one region (it is in the signature's credential scope) and one
// endpoint, so whether an upload is stored proves which source each setting came from. Each test starts
// from an environment with no AWS_* variable and HOME in a temporary directory.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli_support.h"
#include "s3up/mock_server.h"
#include "subprocess.h"

namespace {

using s3up::test::bare_aws_environment;
using s3up::test::run_process;
using s3up::test::TempDir;
using s3up::test::write_random_file;

const std::string s3up_path = S3UP_CLI_PATH;

// The only credentials and region the server accepts; "wrong" ones are signed correctly but refused.
const std::string good_key = "AKIDPROFILETEST00001";
const std::string good_secret = "profile-test-secret/0123456789+abcdefghij";
const std::string good_region = "eu-west-3";
const std::string refused_endpoint = "http://127.0.0.1:1";  // nothing listens: a network error, exit 5

s3up::mock::ServerOptions server_options() {
  s3up::mock::ServerOptions options;
  options.access_key = good_key;
  options.secret_key = good_secret;
  options.region = good_region;
  return options;
}

// A home directory with ~/.aws/config and ~/.aws/credentials holding the given text, and a file to upload.
struct Home {
  TempDir dir;
  std::filesystem::path file;
  Home(const std::string& config, const std::string& credentials) {
    std::filesystem::create_directories(dir / ".aws");
    std::ofstream(dir / ".aws/config") << config;
    std::ofstream(dir / ".aws/credentials") << credentials;
    file = dir / "object.bin";
    write_random_file(file, 20'000, 61);
  }
  std::filesystem::path path() const { return dir / ""; }
};

s3up::test::ProcessOutput cp(const Home& home, const std::string& key, std::vector<std::string> flags,
                             const std::map<std::string, std::string>& env = {}) {
  std::vector<std::string> argv = {s3up_path, "cp", home.file.string(), "s3://bucket/" + key};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return run_process(argv, bare_aws_environment(home.path(), env));
}

std::string credentials_section(const std::string& name, const std::string& key, const std::string& secret) {
  return "[" + name + "]\naws_access_key_id = " + key + "\naws_secret_access_key = " + secret + "\n";
}

}  // namespace

TEST_CASE("s3up cp: --profile and AWS_PROFILE pick the profile, and without them it is the default profile") {
  s3up::mock::Server server(server_options());
  // [default] points nowhere; dev is right in every setting, its endpoint nested under "s3 =".
  Home home("# the default profile\n[default]\nregion = us-east-1\nendpoint_url = " + refused_endpoint +
                "\n\n[profile dev]\n; dev's settings\nregion = " + good_region +
                "\ns3 =\n  endpoint_url = " + server.url() + "\n",
            credentials_section("default", "AKIDDEFAULT", "default-secret") +
                credentials_section("dev", good_key, good_secret));

  auto by_flag = cp(home, "by-flag", {"--profile", "dev"});
  INFO(by_flag.out << by_flag.err);
  CHECK(by_flag.exit_code == 0);
  CHECK(server.object("bucket", "by-flag"));

  auto by_env = cp(home, "by-env", {}, {{"AWS_PROFILE", "dev"}});
  INFO(by_env.out << by_env.err);
  CHECK(by_env.exit_code == 0);
  CHECK(server.object("bucket", "by-env"));

  // --profile beats AWS_PROFILE.
  auto both = cp(home, "both", {"--profile", "dev"}, {{"AWS_PROFILE", "default"}});
  INFO(both.out << both.err);
  CHECK(both.exit_code == 0);

  // AWS_DEFAULT_PROFILE is read before AWS_PROFILE, as botocore's configprovider lists them.
  auto default_first =
      cp(home, "default-first", {}, {{"AWS_DEFAULT_PROFILE", "dev"}, {"AWS_PROFILE", "default"}});
  INFO(default_first.out << default_first.err);
  CHECK(default_first.exit_code == 0);
  auto default_wins =
      cp(home, "default-wins", {}, {{"AWS_DEFAULT_PROFILE", "default"}, {"AWS_PROFILE", "dev"}});
  CHECK(default_wins.exit_code == 5);  // [default]'s endpoint
  CHECK_FALSE(server.object("bucket", "default-wins"));

  auto neither = cp(home, "neither", {});
  INFO(neither.out << neither.err);
  CHECK(neither.exit_code == 5);  // [default]'s endpoint: nothing listens there
  CHECK_FALSE(server.object("bucket", "neither"));
}

TEST_CASE("s3up cp: the environment beats the profile, and a flag beats the environment") {
  s3up::mock::Server server(server_options());
  Home home("[profile dev]\nregion = " + good_region + "\nendpoint_url = " + server.url() + "\n",
            credentials_section("dev", good_key, good_secret));
  const std::map<std::string, std::string> dev = {{"AWS_PROFILE", "dev"}};
  auto with = [&dev](std::map<std::string, std::string> more) {
    more.insert(dev.begin(), dev.end());
    return more;
  };

  SECTION("region") {
    auto env = cp(home, "region", {}, with({{"AWS_REGION", "us-west-2"}}));
    CHECK(env.exit_code == 4);  // signed for us-west-2: the server refuses the credential scope
    auto default_region = cp(home, "region", {}, with({{"AWS_DEFAULT_REGION", "us-west-2"}}));
    CHECK(default_region.exit_code == 4);
    auto flag = cp(home, "region", {"--region", good_region}, with({{"AWS_REGION", "us-west-2"}}));
    INFO(flag.out << flag.err);
    CHECK(flag.exit_code == 0);
  }
  SECTION("endpoint") {
    auto env = cp(home, "endpoint", {}, with({{"AWS_ENDPOINT_URL", refused_endpoint}}));
    CHECK(env.exit_code == 5);
    auto s3_env = cp(home, "endpoint", {}, with({{"AWS_ENDPOINT_URL_S3", refused_endpoint}}));
    CHECK(s3_env.exit_code == 5);
    auto flag = cp(home, "endpoint", {"--endpoint-url", server.url()},
                   with({{"AWS_ENDPOINT_URL_S3", refused_endpoint}}));
    INFO(flag.out << flag.err);
    CHECK(flag.exit_code == 0);
  }
  SECTION("credentials: the environment's keys beat AWS_PROFILE's, an explicit --profile beats both") {
    const std::map<std::string, std::string> wrong_keys = {{"AWS_ACCESS_KEY_ID", "AKIDENVIRONMENT"},
                                                           {"AWS_SECRET_ACCESS_KEY", "environment-secret"}};
    auto env = cp(home, "keys", {}, with(wrong_keys));
    INFO(env.out << env.err);
    CHECK(env.exit_code == 4);
    CHECK(env.err.find("InvalidAccessKeyId") != std::string::npos);
    // As botocore does: a profile named on the command line drops the environment's credentials.
    auto flag = cp(home, "keys", {"--profile", "dev"}, wrong_keys);
    INFO(flag.out << flag.err);
    CHECK(flag.exit_code == 0);
  }
  SECTION("--profile naming a profile without keys never falls back to the environment's keys") {
    Home keyless("[profile keyless]\nregion = " + good_region + "\nendpoint_url = " + server.url() + "\n",
                 "");
    const std::map<std::string, std::string> good_env_keys = {{"AWS_ACCESS_KEY_ID", good_key},
                                                              {"AWS_SECRET_ACCESS_KEY", good_secret}};
    auto flag = cp(keyless, "keyless", {"--profile", "keyless"}, good_env_keys);
    INFO(flag.out << flag.err);
    CHECK(flag.exit_code == 2);
    CHECK(flag.err.find("no credentials") != std::string::npos);
    CHECK_FALSE(server.object("bucket", "keyless"));
    // Chosen by AWS_PROFILE instead, the same profile takes the environment's keys.
    auto env = cp(keyless, "keyless", {},
                  {{"AWS_PROFILE", "keyless"},
                   {"AWS_ACCESS_KEY_ID", good_key},
                   {"AWS_SECRET_ACCESS_KEY", good_secret}});
    INFO(env.out << env.err);
    CHECK(env.exit_code == 0);
  }
  SECTION("half a pair of keys in the environment is a usage error, not a silent fall-back") {
    auto half = cp(home, "keys", {}, with({{"AWS_ACCESS_KEY_ID", "AKIDENVIRONMENT"}}));
    CHECK(half.exit_code == 2);
    CHECK(half.err.find("AWS_SECRET_ACCESS_KEY") != std::string::npos);
  }
}

TEST_CASE("s3up cp: credentials come from the credentials file before the config file") {
  s3up::mock::Server server(server_options());
  const std::string settings = "region = " + good_region + "\nendpoint_url = " + server.url() + "\n";

  SECTION("both files have keys: the credentials file's are used") {
    Home home(
        "[default]\n" + settings + "aws_access_key_id = AKIDCONFIGFILE\naws_secret_access_key = config\n",
        credentials_section("default", good_key, good_secret));
    auto output = cp(home, "key", {});
    INFO(output.out << output.err);
    CHECK(output.exit_code == 0);
  }
  SECTION("only the config file has keys: they are used") {
    Home home("[default]\n" + settings + "aws_access_key_id = " + good_key +
                  "\naws_secret_access_key = " + good_secret + "\n",
              "");
    auto output = cp(home, "key", {});
    INFO(output.out << output.err);
    CHECK(output.exit_code == 0);
  }
  SECTION("AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE move both files") {
    Home home("[default]\nregion = us-east-1\n", "");
    std::ofstream(home.dir / "elsewhere-config") << "[profile x]\n" << settings;
    std::ofstream(home.dir / "elsewhere-credentials") << credentials_section("x", good_key, good_secret);
    auto output = cp(home, "key", {"--profile", "x"},
                     {{"AWS_CONFIG_FILE", (home.dir / "elsewhere-config").string()},
                      {"AWS_SHARED_CREDENTIALS_FILE", (home.dir / "elsewhere-credentials").string()}});
    INFO(output.out << output.err);
    CHECK(output.exit_code == 0);
  }
  CHECK(server.object("bucket", "key"));
}

TEST_CASE("s3up cp: the endpoint nested under s3 beats the profile's top-level endpoint_url") {
  s3up::mock::Server server(server_options());
  Home home("[default]\nregion = " + good_region + "\nendpoint_url = " + refused_endpoint +
                "\ns3 =\n  addressing_style = path\n  endpoint_url = " + server.url() + "\n",
            credentials_section("default", good_key, good_secret));
  auto output = cp(home, "nested", {});
  INFO(output.out << output.err);
  CHECK(output.exit_code == 0);
  CHECK(server.object("bucket", "nested"));
}

TEST_CASE("s3up cp: a named profile that does not exist is a usage error naming it and the files") {
  Home home("[default]\nregion = us-east-1\n", credentials_section("default", good_key, good_secret));
  const std::string config = (home.dir / ".aws/config").string();
  for (const auto& [flags, env] :
       std::vector<std::pair<std::vector<std::string>, std::map<std::string, std::string>>>{
           {{"--profile", "nope"}, {}}, {{}, {{"AWS_PROFILE", "nope"}}}}) {
    auto output = cp(home, "key", flags, env);
    INFO(output.err);
    CHECK(output.exit_code == 2);
    CHECK(output.err.find("The config profile (nope) could not be found") != std::string::npos);
    CHECK(output.err.find(config) != std::string::npos);
  }
}

TEST_CASE("s3up cp: a configuration file that cannot be parsed is a usage error that quotes no secret") {
  const std::string secret = "a-secret-that-must-not-be-printed";
  Home home("[default]\nregion = us-east-1\n", "aws_secret_access_key = " + secret + "\n");
  auto output = cp(home, "key", {});
  CHECK(output.exit_code == 2);
  CHECK(output.err.find("credentials, line 1") != std::string::npos);
  CHECK(output.err.find(secret) == std::string::npos);
}

TEST_CASE("s3up cp: --debug says where each setting came from and never prints a profile's secret") {
  s3up::mock::Server server(server_options());
  Home home("[profile dev]\nregion = " + good_region + "\nendpoint_url = " + server.url() + "\n",
            credentials_section("dev", good_key, good_secret));
  auto output = run_process({s3up_path, "--debug", "cp", home.file.string(), "s3://bucket/debug", "--profile",
                             "dev", "--signed-payload"},
                            bare_aws_environment(home.path()));
  INFO(output.err);
  REQUIRE(output.exit_code == 0);
  CHECK(output.err.find("region " + good_region + " (from profile dev)") != std::string::npos);
  CHECK(output.err.find("credentials from profile dev") != std::string::npos);
  CHECK(output.err.find("[trace]") != std::string::npos);
  CHECK(output.err.find(good_secret) == std::string::npos);
  CHECK(output.err.find("Signature=") == std::string::npos);
}

TEST_CASE(
    "s3up cp: request_checksum_calculation from the profile, AWS_REQUEST_CHECKSUM_CALCULATION beats it") {
  s3up::mock::Server server(server_options());
  Home home("[default]\nregion = " + good_region + "\nendpoint_url = " + server.url() +
                "\nrequest_checksum_calculation = when_required\n",
            credentials_section("default", good_key, good_secret));
  auto required = cp(home, "required", {});
  INFO(required.out << required.err);
  REQUIRE(required.exit_code == 0);
  CHECK(required.out.find("checksum: none") != std::string::npos);
  REQUIRE(server.object("bucket", "required"));
  // Nothing sent: what the server holds, if anything, is its own default (S3 adds CRC64NVME), not our CRC32.
  const auto stored = server.object("bucket", "required")->checksum;
  CHECK((!stored || stored->first != "x-amz-checksum-crc32"));

  auto supported = cp(home, "supported", {}, {{"AWS_REQUEST_CHECKSUM_CALCULATION", "when_supported"}});
  INFO(supported.out << supported.err);
  REQUIRE(supported.exit_code == 0);
  REQUIRE(server.object("bucket", "supported"));
  REQUIRE(server.object("bucket", "supported")->checksum);
  CHECK(server.object("bucket", "supported")->checksum->first == "x-amz-checksum-crc32");

  Home bad("[default]\nrequest_checksum_calculation = sometimes\n", "");
  auto usage = cp(bad, "bad", {});
  CHECK(usage.exit_code == 2);
  CHECK(usage.err.find("sometimes") != std::string::npos);
}

TEST_CASE("s3up cp: ca_bundle from the profile is trusted for HTTPS, and AWS_CA_BUNDLE beats it") {
  TempDir certs;
  const std::string cert = (certs / "server.pem").string();
  s3up::mock::ServerOptions options = server_options();
  options.tls = true;
  options.cert_out = cert;
  s3up::mock::Server server(options);
  REQUIRE(server.url().rfind("https://", 0) == 0);
  Home home("[default]\nregion = " + good_region + "\nendpoint_url = " + server.url() +
                "\nca_bundle = " + cert + "\n",
            credentials_section("default", good_key, good_secret));

  auto trusted = cp(home, "tls", {});
  INFO(trusted.out << trusted.err);
  CHECK(trusted.exit_code == 0);
  CHECK(server.object("bucket", "tls"));

  // The system store does not hold the mock server's self-signed certificate: a TLS failure, exit 5.
  auto env = cp(home, "tls-env", {}, {{"AWS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt"}});
  INFO(env.out << env.err);
  CHECK(env.exit_code == 5);
  auto flag =
      cp(home, "tls-flag", {"--ca-bundle", cert}, {{"AWS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt"}});
  INFO(flag.out << flag.err);
  CHECK(flag.exit_code == 0);
}

TEST_CASE("s3up cp: provider from the profile, --provider beats it, an unknown name is a usage error") {
  s3up::mock::ServerOptions options = server_options();
  options.emulate = s3up::mock::Emulation::b2;  // refuses x-amz-checksum-* headers, as Backblaze B2 does
  s3up::mock::Server server(options);
  Home home("[default]\nregion = " + good_region + "\nendpoint_url = " + server.url() + "\nprovider = b2\n",
            credentials_section("default", good_key, good_secret));

  auto b2 = cp(home, "b2", {});
  INFO(b2.out << b2.err);
  CHECK(b2.exit_code == 0);
  CHECK(server.object("bucket", "b2"));

  auto generic = cp(home, "generic", {"--provider", "generic"});
  INFO(generic.out << generic.err);
  CHECK(generic.exit_code == 4);  // the plain S3 defaults (an x-amz-checksum-crc32 header) are refused
  CHECK_FALSE(server.object("bucket", "generic"));

  auto unknown = cp(home, "unknown", {"--provider", "dropbox"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("dropbox") != std::string::npos);
}

TEST_CASE("s3up cp: --debug never prints a password written into the endpoint URL") {
  const std::string password = "endpoint-password-not-for-logs";
  Home home("", credentials_section("default", good_key, good_secret));
  const std::string url = "http://user:" + password + "@127.0.0.1:1/";
  for (const auto& [flags, env] :
       std::vector<std::pair<std::vector<std::string>, std::map<std::string, std::string>>>{
           {{"--endpoint-url", url}, {}}, {{}, {{"AWS_ENDPOINT_URL", url}}}}) {
    std::vector<std::string> argv = {s3up_path, "--debug", "cp", home.file.string(), "s3://bucket/key"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    auto output = run_process(argv, bare_aws_environment(home.path(), env));
    INFO(output.err);
    CHECK(output.exit_code == 2);  // the library refuses user info in an endpoint
    CHECK(output.err.find("endpoint http://...@127.0.0.1:1/") != std::string::npos);  // logged, masked
    CHECK(output.err.find(password) == std::string::npos);
    CHECK(output.out.find(password) == std::string::npos);
  }
}
