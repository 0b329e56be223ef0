// cli/aws_config.h: the AWS shared configuration files (~/.aws/config and ~/.aws/credentials) read the way
// the AWS CLI reads them: INI sections, "[profile NAME]" and "[NAME]" profiles, and nested "s3 =" values.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3up::cli {

// A shared configuration file that cannot be parsed. The message names the file and the line, never a
// value: the line could hold a secret.
class ConfigFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// key -> value. A nested value ("s3 =" followed by indented "endpoint_url = ..." lines) is stored under
// "s3.endpoint_url". Top-level keys are lowercase, as Python's configparser (which botocore uses) makes them;
// nested keys keep their case, as botocore's _parse_nested does ("Endpoint_URL" is not "endpoint_url").
using IniSection = std::map<std::string, std::string>;
// The sections in file order, each name as written between the brackets (not trimmed: "[ profile dev ]" is
// the section " profile dev ", which is no profile for botocore). A name appears once: a repeated section is
// a parse error, as configparser makes it.
using IniFile = std::vector<std::pair<std::string, IniSection>>;

// The section called name, or nullptr.
const IniSection* find_section(const IniFile& file, std::string_view name);

// Parses INI text as botocore does: whole-line comments starting with '#' or ';', "key = value" or
// "key: value" with whitespace around both trimmed, and indented lines under a key with an empty value as
// that key's nested values. Throws ConfigFileError for a line that is none of these, a key before any
// section header, a section or a key repeated (configparser's strict mode, which botocore uses). file_name is
// only for the message.
IniFile parse_ini(std::string_view text, const std::string& file_name);

// Where the two files are: AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/config and
// ~/.aws/credentials (a leading "~/" means $HOME).
struct SharedConfigPaths {
  std::string config;
  std::string credentials;
};
SharedConfigPaths shared_config_paths();

// "~/x" -> "$HOME/x"; anything else unchanged.
std::string expand_home(const std::string& path);

// One profile, merged from both files as botocore merges them: the credentials file's values replace the
// config file's, so credentials there beat credentials in the config file.
struct AwsProfile {
  std::string name;
  IniSection values;
  // The config file's "[services NAME]" section that the profile's "services = NAME" names (empty when none).
  IniSection services;
};

// The profile `name` from the config file ("[profile NAME]", or "[default]"/"[profile default]" for
// "default": when both exist the later one replaces the earlier entirely, as in botocore) and the
// credentials file ("[NAME]"). A file that does not exist counts as empty. nullopt when neither file has the
// profile. Throws ConfigFileError when a file exists but cannot be read or parsed (a directory included), or
// when the profile's "services = NAME" names no (or an empty) "[services NAME]" section.
std::optional<AwsProfile> load_profile(const SharedConfigPaths& paths, const std::string& name);

}  // namespace s3up::cli
