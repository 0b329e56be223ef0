// cli/aws_config.cpp: parsing the AWS shared configuration files and finding one profile in them, following
// botocore's configloader (Python's configparser underneath) so that a file the AWS CLI reads reads the same.
#include "aws_config.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

#include "s3up/checksum.h"  // ascii_lowercase, trim_ascii_whitespace

namespace s3up::cli {
namespace {

// The whitespace that indents a continuation line or separates "profile" from the name.
constexpr std::string_view whitespace = " \t\r\f\v";

// The message of a parse error: where, never what (the line could be "aws_secret_access_key = ...").
ConfigFileError parse_error(const std::string& file_name, std::size_t line_number, std::string_view why) {
  return ConfigFileError(file_name + ", line " + std::to_string(line_number) + ": " + std::string(why));
}

std::optional<std::string> read_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) return std::nullopt;  // no file: no profiles, as the AWS CLI
  // An ifstream "reads" a directory as empty on Linux: a mistyped AWS_CONFIG_FILE would pass for no profile.
  if (std::filesystem::is_directory(status)) throw ConfigFileError(path + " is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigFileError("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

IniFile parse_file(const std::string& path) {
  auto text = read_file(path);
  return text ? parse_ini(*text, path) : IniFile{};
}

// configparser's section header: '[' then everything up to the last ']' (anything after it is ignored). The
// name is kept as written, spaces included: botocore only recognizes "[profile dev]", not "[ profile dev ]".
std::optional<std::string> section_header(std::string_view line) {
  if (line.empty() || line.front() != '[') return std::nullopt;
  const auto close = line.rfind(']');
  if (close == std::string_view::npos || close < 2) return std::nullopt;
  return std::string(line.substr(1, close - 1));
}

// "PREFIX   NAME" -> "NAME" ("profile dev", "services local"); nullopt for any other section.
std::optional<std::string> prefixed_section_name(const std::string& section, std::string_view prefix) {
  if (section.size() <= prefix.size() || section.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::string_view rest(section.data() + prefix.size(), section.size() - prefix.size());
  if (whitespace.find(rest.front()) == std::string_view::npos) return std::nullopt;  // "profiler"
  return std::string(trim_ascii_whitespace(rest));
}

// "[profile NAME]" -> "NAME", "[default]" -> "default"; nullopt for any other section ("services x",
// "sso-session y", "plugins").
std::optional<std::string> config_profile_name(const std::string& section) {
  if (section == "default") return section;
  return prefixed_section_name(section, "profile");
}

void merge(IniSection& into, const IniSection& from) {
  for (const auto& [key, value] : from) into[key] = value;
}

}  // namespace

std::string expand_home(const std::string& path) {
  if (path != "~" && path.rfind("~/", 0) != 0) return path;
  std::string home = std::getenv("HOME") != nullptr ? std::getenv("HOME") : "";
  // As Python's expanduser: "/home/me/" + "/.aws" is "/home/me/.aws".
  while (home.size() > 1 && home.back() == '/') home.pop_back();
  return home + path.substr(1);
}

const IniSection* find_section(const IniFile& file, std::string_view name) {
  for (const auto& [section_name, keys] : file) {
    if (section_name == name) return &keys;
  }
  return nullptr;
}

IniFile parse_ini(std::string_view text, const std::string& file_name) {
  IniFile file;
  IniSection* section = nullptr;
  std::set<std::string> section_keys;  // the section's top-level keys: a nested "s3.x" is not one
  std::string key;                     // the last key of the section: indented lines below it continue it
  std::size_t key_indent = 0;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    const std::string_view raw = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;

    const std::string_view line = trim_ascii_whitespace(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    const std::size_t indent = raw.find_first_not_of(whitespace);

    if (section != nullptr && !key.empty() && indent > key_indent) {
      // A continuation line. Under a key with an empty value it is a nested "name = value" (botocore's
      // _parse_nested splits at the first '='); under a key with a value it extends that value.
      std::string& value = (*section)[key];
      if (value.empty()) {
        const auto equals = line.find('=');
        if (equals == std::string_view::npos)
          throw parse_error(file_name, line_number, "an indented line under \"" + key + " =\" needs '='");
        // Case kept, as botocore's _parse_nested keeps it; a repeated nested key replaces (a Python dict).
        (*section)[key + "." + std::string(trim_ascii_whitespace(line.substr(0, equals)))] =
            std::string(trim_ascii_whitespace(line.substr(equals + 1)));
      } else {
        value += '\n';
        value += line;
      }
      continue;
    }

    if (auto name = section_header(line)) {
      // configparser (strict, as botocore uses it) refuses a repeated section rather than merging it.
      if (find_section(file, *name) != nullptr)
        throw parse_error(file_name, line_number, "a section that appears a second time");
      section = &file.emplace_back(std::move(*name), IniSection{}).second;
      section_keys.clear();
      key.clear();
      continue;
    }
    if (section == nullptr) throw parse_error(file_name, line_number, "a key before any [section] header");
    const auto delimiter = line.find_first_of("=:");
    if (delimiter == std::string_view::npos || delimiter == 0)
      throw parse_error(file_name, line_number, "not a [section], a 'key = value' line or a comment");
    key = ascii_lowercase(trim_ascii_whitespace(line.substr(0, delimiter)));
    // The same for a repeated key (any case: configparser lowercases before it compares).
    if (!section_keys.insert(key).second)
      throw parse_error(file_name, line_number, "a key that appears a second time in its section");
    key_indent = indent;
    (*section)[key] = std::string(trim_ascii_whitespace(line.substr(delimiter + 1)));
  }
  return file;
}

SharedConfigPaths shared_config_paths() {
  auto from_env = [](const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return expand_home(value != nullptr && *value != '\0' ? value : fallback);
  };
  return {from_env("AWS_CONFIG_FILE", "~/.aws/config"),
          from_env("AWS_SHARED_CREDENTIALS_FILE", "~/.aws/credentials")};
}

std::optional<AwsProfile> load_profile(const SharedConfigPaths& paths, const std::string& name) {
  const IniFile config = parse_file(paths.config);
  const IniFile credentials = parse_file(paths.credentials);

  AwsProfile profile{name, {}, {}};
  bool found = false;
  // In file order, a later section of the same profile replaces an earlier one entirely, as botocore's
  // build_profile_map does: "[profile default]" and "[default]" both name the default profile, and the one
  // further down the file is the one used.
  for (const auto& [section, keys] : config) {
    if (config_profile_name(section) == name) {
      profile.values = keys;
      found = true;
    }
  }
  if (const IniSection* keys = find_section(credentials, name)) {
    merge(profile.values, *keys);
    found = true;
  }
  if (!found) return std::nullopt;
  if (auto it = profile.values.find("services"); it != profile.values.end()) {
    // botocore raises for a services section that is missing or empty rather than ignore the setting.
    for (const auto& [section, keys] : config) {
      if (prefixed_section_name(section, "services") == it->second) profile.services = keys;
    }
    if (profile.services.empty()) {
      throw ConfigFileError(paths.config + ": profile " + name + " names services section \"" + it->second +
                            "\", which does not exist or is empty");
    }
  }
  return profile;
}

}  // namespace s3up::cli
