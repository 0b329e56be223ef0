// cli/aws_config.cpp: parsing the AWS shared configuration files and finding one profile in them, following
// botocore's configloader (Python's configparser underneath) so that a file the AWS CLI reads reads the same.
#include "aws_config.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "s3up/checksum.h"  // ascii_lowercase

namespace s3up::cli {
namespace {

constexpr std::string_view whitespace = " \t\r\f\v";

std::string_view trim(std::string_view text) {
  const auto begin = text.find_first_not_of(whitespace);
  if (begin == std::string_view::npos) return {};
  return text.substr(begin, text.find_last_not_of(whitespace) - begin + 1);
}

// The message of a parse error: where, never what (the line could be "aws_secret_access_key = ...").
ConfigFileError parse_error(const std::string& file_name, std::size_t line_number, std::string_view why) {
  return ConfigFileError(file_name + ", line " + std::to_string(line_number) + ": " + std::string(why));
}

std::optional<std::string> read_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;  // no file: no profiles, as the AWS CLI
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigFileError("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

IniFile parse_file(const std::string& path) {
  auto text = read_file(path);
  return text ? parse_ini(*text, path) : IniFile{};
}

// configparser's section header: '[' then everything up to the last ']' (anything after it is ignored).
std::optional<std::string> section_header(std::string_view line) {
  if (line.empty() || line.front() != '[') return std::nullopt;
  const auto close = line.rfind(']');
  if (close == std::string_view::npos || close < 2) return std::nullopt;
  return std::string(trim(line.substr(1, close - 1)));
}

// "profile   NAME" -> "NAME"; nullopt for any other section ("services x", "sso-session y", "plugins").
std::optional<std::string> config_profile_name(const std::string& section) {
  if (section == "default") return section;
  constexpr std::string_view prefix = "profile";
  if (section.size() <= prefix.size() || section.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::string_view rest(section.data() + prefix.size(), section.size() - prefix.size());
  if (whitespace.find(rest.front()) == std::string_view::npos) return std::nullopt;  // "profiler"
  return std::string(trim(rest));
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

IniFile parse_ini(std::string_view text, const std::string& file_name) {
  IniFile file;
  IniSection* section = nullptr;
  std::string key;  // the last key of the section: indented lines below it continue it
  std::size_t key_indent = 0;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    const std::string_view raw = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;

    const std::string_view line = trim(raw);
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
        (*section)[key + "." + ascii_lowercase(trim(line.substr(0, equals)))] =
            std::string(trim(line.substr(equals + 1)));
      } else {
        value += '\n';
        value += line;
      }
      continue;
    }

    if (auto name = section_header(line)) {
      section = &file[*name];
      key.clear();
      continue;
    }
    if (section == nullptr) throw parse_error(file_name, line_number, "a key before any [section] header");
    const auto delimiter = line.find_first_of("=:");
    if (delimiter == std::string_view::npos || delimiter == 0)
      throw parse_error(file_name, line_number, "not a [section], a 'key = value' line or a comment");
    key = ascii_lowercase(trim(line.substr(0, delimiter)));
    key_indent = indent;
    (*section)[key] = std::string(trim(line.substr(delimiter + 1)));
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
  // "[profile default]" and "[default]" both name the default profile; botocore lets the first win when
  // both exist, so it is merged first here and "[default]" only fills what it left out.
  for (const auto& [section, keys] : config) {
    if (config_profile_name(section) == name && section != "default") {
      merge(profile.values, keys);
      found = true;
    }
  }
  if (name == "default") {
    if (auto it = config.find("default"); it != config.end()) {
      for (const auto& [key, value] : it->second) profile.values.emplace(key, value);
      found = true;
    }
  }
  if (auto it = credentials.find(name); it != credentials.end()) {
    merge(profile.values, it->second);
    found = true;
  }
  if (!found) return std::nullopt;
  if (auto it = profile.values.find("services"); it != profile.values.end()) {
    if (auto services = config.find("services " + it->second); services != config.end())
      profile.services = services->second;
  }
  return profile;
}

}  // namespace s3up::cli
