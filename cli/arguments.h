// cli/arguments.h: the small command-line parser the s3up subcommands share: "--name value", "--name=value"
// and boolean "--flag" options, positional arguments, and size values with suffixes (64KiB, 8MiB, 1GiB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace s3up::cli {

// A mistake in how the command was called: printed with the usage, exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Arguments {
 public:
  // value_options take a value; flag_options do not. Anything else starting with "--" is a usage error.
  // "-h" is the flag "help" when flag_options has it, except after "--" or as an option's value.
  Arguments(const std::vector<std::string>& args, const std::set<std::string>& value_options,
            const std::set<std::string>& flag_options);

  std::optional<std::string> value(const std::string& name) const;
  bool flag(const std::string& name) const { return flags_.count(name) != 0; }
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
  std::vector<std::string> positional_;
};

// "1048576", "64KiB", "8MiB", "1GiB", "10MB" (powers of 1000 for kB/MB/GB). Throws UsageError.
std::uint64_t parse_size(std::string_view text);
// "812 B", "256.0 MiB": binary units, one decimal above bytes, for tables and the progress line.
std::string format_size(std::uint64_t bytes);
// The same into out (size bytes, 32 is always enough), without allocating: the progress bar redraws with it.
void format_size_to(char* out, std::size_t size, std::uint64_t bytes);

}  // namespace s3up::cli
