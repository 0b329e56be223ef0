// cli/arguments.cpp: option parsing and size values for the s3up command.
#include "arguments.h"

#include "s3up/checksum.h"  // ascii_lowercase

#include <charconv>
#include <cstdio>

namespace s3up::cli {

Arguments::Arguments(const std::vector<std::string>& args, const std::set<std::string>& value_options,
                     const std::set<std::string>& flag_options) {
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // "-h", the only short option, is --help where an option could be: not after "--" (a file named "-h"),
    // and never as the value of an option, which the branch below takes before the loop sees it.
    if (!options_ended && arg == "-h" && flag_options.count("help")) {
      flags_.insert("help");
      continue;
    }
    if (options_ended || arg.size() < 3 || arg.rfind("--", 0) != 0) {
      if (arg == "--") {
        options_ended = true;
        continue;
      }
      positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (value_options.count(name)) {
      if (inline_value) {
        values_[name] = *inline_value;
      } else if (i + 1 < args.size()) {
        values_[name] = args[++i];
      } else {
        throw UsageError("option --" + name + " needs a value");
      }
    } else if (flag_options.count(name) && !inline_value) {
      flags_.insert(name);
    } else {
      throw UsageError("unknown option --" + name);
    }
  }
}

std::optional<std::string> Arguments::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::uint64_t parse_size(std::string_view text) {
  std::uint64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end == text.data()) throw UsageError("not a size: '" + std::string(text) + "'");
  const std::string suffix = ascii_lowercase(std::string_view(end, text.data() + text.size()));
  struct Unit {
    std::string_view name;
    std::uint64_t factor;
  };
  static constexpr Unit units[] = {{"", 1},
                                   {"b", 1},
                                   {"k", 1024},
                                   {"kib", 1024},
                                   {"m", 1 << 20},
                                   {"mib", 1 << 20},
                                   {"g", 1ull << 30},
                                   {"gib", 1ull << 30},
                                   {"t", 1ull << 40},
                                   {"tib", 1ull << 40},
                                   {"kb", 1000},
                                   {"mb", 1000 * 1000},
                                   {"gb", 1000ull * 1000 * 1000}};
  for (const Unit& unit : units) {
    if (suffix == unit.name) {
      if (number > UINT64_MAX / unit.factor) throw UsageError("size too large: '" + std::string(text) + "'");
      return number * unit.factor;
    }
  }
  throw UsageError("unknown size suffix in '" + std::string(text) + "' (use KiB, MiB, GiB)");
}

void format_size_to(char* out, std::size_t size, std::uint64_t bytes) {
  static constexpr const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) {
    std::snprintf(out, size, "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(out, size, "%.1f %s", value, names[unit]);
  }
}

std::string format_size(std::uint64_t bytes) {
  char text[32];
  format_size_to(text, sizeof text, bytes);
  return text;
}

}  // namespace s3up::cli
