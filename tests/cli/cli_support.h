// cli_support.h: what the CLI tests share: a temporary directory, a file of random bytes, and the
// environment a user of `s3up cp` would have.
#pragma once

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "s3up/mock_server.h"
#include "subprocess.h"

namespace s3up::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "s3up-cli-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline std::string write_random_file(const std::filesystem::path& path, std::size_t size, unsigned seed) {
  std::mt19937 generator(seed);
  std::string data(size, '\0');
  for (char& c : data) c = static_cast<char>(generator());
  std::ofstream(path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
  return data;
}

// The environment a user would have: the mock server's credentials, nothing else of AWS's (a developer's
// AWS_MAX_ATTEMPTS included, which would change how many times a test's request is tried).
inline std::vector<std::string> user_environment(const std::map<std::string, std::string>& extra = {}) {
  // The configuration files point nowhere, so that a developer's ~/.aws profiles cannot change a test.
  std::map<std::string, std::string> set = {
      {"AWS_ACCESS_KEY_ID", mock::default_access_key},
      {"AWS_SECRET_ACCESS_KEY", mock::default_secret_key},
      {"AWS_REGION", "us-east-1"},
      {"AWS_CONFIG_FILE", "/nonexistent/s3up-test/aws/config"},
      {"AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/s3up-test/aws/credentials"}};
  for (const auto& [name, value] : extra) set[name] = value;
  return make_environment(set, {"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN", "AWS_PROFILE",
                                "AWS_DEFAULT_PROFILE", "AWS_REQUEST_CHECKSUM_CALCULATION",
                                "AWS_DEFAULT_REGION", "S3UP_LOG_LEVEL", "AWS_MAX_ATTEMPTS"});
}

// An environment with no AWS_* variable but those in `set`, and HOME at `home`: the AWS configuration comes
// only from what a test writes under home/.aws (or names in set). The machine's own AWS_CA_BUNDLE and a
// developer's keys cannot leak in.
inline std::vector<std::string> bare_aws_environment(const std::filesystem::path& home,
                                                     const std::map<std::string, std::string>& set = {}) {
  std::map<std::string, std::string> all = set;
  all["HOME"] = home.string();
  std::vector<std::string> unset;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    const std::string name = text.substr(0, text.find('='));
    if ((name.rfind("AWS_", 0) == 0 || name == "S3UP_LOG_LEVEL") && set.count(name) == 0)
      unset.push_back(name);
  }
  return make_environment(all, unset);
}

}  // namespace s3up::test
