// canonical_request.cpp: the SigV4 canonical request (reference §3.1) with the S3 rules: the path is
// URI-encoded once and never normalised; query parameters sorted by encoded name, then value; header
// names lowercased and sorted, values trimmed with inner space runs collapsed.
#include <algorithm>

#include "s3up/sigv4.h"

namespace s3up::sigv4 {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

// SigV4 "Trimall": strip leading and trailing whitespace, collapse every inner run to a single space.
std::string trim_all(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  bool pending_space = false;
  for (char c : value) {
    if (is_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

struct CanonicalHeader {
  std::string name;
  std::string value;
};

// Lowercased, trimmed and sorted by name. A header given twice becomes one line with its values joined
// by ',' in the order given, as SigV4 specifies; stable_sort keeps that order.
std::vector<CanonicalHeader> canonicalise(const std::vector<Header>& headers) {
  std::vector<CanonicalHeader> sorted;
  sorted.reserve(headers.size());
  for (const auto& header : headers) sorted.push_back({ascii_lowercase(header.name), trim_all(header.value)});
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const CanonicalHeader& a, const CanonicalHeader& b) { return a.name < b.name; });
  std::vector<CanonicalHeader> merged;
  merged.reserve(sorted.size());
  for (auto& header : sorted) {
    if (!merged.empty() && merged.back().name == header.name) {
      merged.back().value += ',';
      merged.back().value += header.value;
    } else {
      merged.push_back(std::move(header));
    }
  }
  return merged;
}

}  // namespace

std::string canonical_uri(std::string_view path) {
  if (path.empty()) return "/";
  return uri_encode(path, false);
}

std::string canonical_query_string(const std::vector<QueryParameter>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& parameter : query)
    encoded.emplace_back(uri_encode(parameter.name, true), uri_encode(parameter.value, true));
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) out += '&';
    out += name;
    out += '=';  // "?uploads" signs as "uploads="
    out += value;
  }
  return out;
}

std::string canonical_headers(const std::vector<Header>& headers) {
  std::string out;
  for (const auto& header : canonicalise(headers)) {
    out += header.name;
    out += ':';
    out += header.value;
    out += '\n';
  }
  return out;
}

std::string signed_headers(const std::vector<Header>& headers) {
  std::string out;
  for (const auto& header : canonicalise(headers)) {
    if (!out.empty()) out += ';';
    out += header.name;
  }
  return out;
}

std::string canonical_request(const RequestToSign& request) {
  std::string out;
  out += request.method;
  out += '\n';
  out += canonical_uri(request.path);
  out += '\n';
  out += canonical_query_string(request.query);
  out += '\n';
  out += canonical_headers(request.headers);  // already ends with '\n': the blank line follows
  out += '\n';
  out += signed_headers(request.headers);
  out += '\n';
  out += request.payload_hash;
  return out;
}

}  // namespace s3up::sigv4
