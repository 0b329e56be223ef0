// bench/bench_support.cpp: see bench_support.h.
#include "bench_support.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace s3up::bench {

std::uint64_t proc_status_kib(std::string_view field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.size() > field.size() && line.compare(0, field.size(), field) == 0 && line[field.size()] == ':')
      return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10);
  }
  return 0;
}

bool reset_peak_rss() {
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";
  clear_refs.flush();
  return static_cast<bool>(clear_refs);
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen + " (" + std::to_string(std::thread::hardware_concurrency()) +
         " CPUs)";
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

struct StreamHash::Context {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
};

StreamHash::StreamHash() : context_(std::make_unique<Context>()) {
  if (!context_->context) throw std::runtime_error("EVP_MD_CTX_new failed");
  reset();
}

StreamHash::~StreamHash() = default;

void StreamHash::reset() {
  if (EVP_DigestInit_ex(context_->context.get(), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("EVP_DigestInit_ex failed");
}

void StreamHash::update(std::span<const std::byte> data) {
  EVP_DigestUpdate(context_->context.get(), data.data(), data.size());
}

std::string StreamHash::finish_hex() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(context_->context.get(), digest, &size);
  std::string hex;
  char pair[3];
  for (unsigned int i = 0; i < size; ++i) {
    std::snprintf(pair, sizeof pair, "%02x", digest[i]);
    hex += pair;
  }
  reset();
  return hex;
}

std::string sha256_hex(std::span<const std::byte> data) {
  StreamHash hash;
  hash.update(data);
  return hash.finish_hex();
}

std::string sha256_hex(std::string_view data) {
  return sha256_hex(std::as_bytes(std::span(data.data(), data.size())));
}

std::string size_text(std::uint64_t bytes) {
  if (bytes >= gib && bytes % gib == 0) return std::to_string(bytes / gib) + " GiB";
  if (bytes >= mib && bytes % mib == 0) return std::to_string(bytes / mib) + " MiB";
  if (bytes >= kib && bytes % kib == 0) return std::to_string(bytes / kib) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace s3up::bench
