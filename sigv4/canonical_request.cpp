// canonical_request.cpp: the SigV4 canonical request (reference §3.1) with the S3 rules: the path is
// URI-encoded once and never normalised; query parameters sorted by encoded name, then value; header
// names lowercased and sorted, values trimmed with inner space runs collapsed. Built by appending to one
// string: a request is signed on every attempt, and copies of its headers would be allocations each time.
#include <algorithm>

#include "s3up/sigv4.h"

namespace s3up::sigv4 {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

unsigned char lower(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 'A' && u <= 'Z' ? static_cast<unsigned char>(u - 'A' + 'a') : u;
}

// SigV4 "Trimall": strip leading and trailing whitespace, collapse every inner run to a single space.
void append_trimmed(std::string& out, std::string_view value) {
  bool any = false;
  bool pending_space = false;
  for (char c : value) {
    if (is_space(c)) {
      pending_space = any;
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    any = true;
    out.push_back(c);
  }
}

// The order of the lowercase names, byte by byte as std::string compares them, without making them.
bool lowercase_less(std::string_view a, std::string_view b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](char x, char y) { return lower(x) < lower(y); });
}

// Sorted by lowercase name; ties by position keep a repeated header's values in the order given.
std::vector<const Header*> sorted_by_name(const std::vector<Header>& headers) {
  std::vector<const Header*> sorted;
  sorted.reserve(headers.size());
  for (const auto& header : headers) sorted.push_back(&header);
  std::sort(sorted.begin(), sorted.end(), [](const Header* a, const Header* b) {
    if (lowercase_less(a->name, b->name)) return true;
    return !lowercase_less(b->name, a->name) && a < b;
  });
  return sorted;
}

void append_lowercase(std::string& out, std::string_view text) {
  for (char c : text) out.push_back(static_cast<char>(lower(c)));
}

// The end of the run of headers from `at` that share its name, in any case.
std::size_t same_name_end(const std::vector<const Header*>& sorted, std::size_t at) {
  std::size_t end = at + 1;
  while (end < sorted.size() && ascii_iequals(sorted[end]->name, sorted[at]->name)) ++end;
  return end;
}

// "name:value\n" for each name, a repeated name once with its values joined by ','.
void append_canonical_headers(std::string& out, const std::vector<const Header*>& sorted) {
  for (std::size_t at = 0; at < sorted.size();) {
    const std::size_t end = same_name_end(sorted, at);
    append_lowercase(out, sorted[at]->name);
    out.push_back(':');
    for (std::size_t k = at; k < end; ++k) {
      if (k > at) out.push_back(',');
      append_trimmed(out, sorted[k]->value);
    }
    out.push_back('\n');
    at = end;
  }
}

// "name;name": each name once.
void append_signed_headers(std::string& out, const std::vector<const Header*>& sorted) {
  const std::size_t start = out.size();
  for (std::size_t at = 0; at < sorted.size(); at = same_name_end(sorted, at)) {
    if (out.size() > start) out.push_back(';');
    append_lowercase(out, sorted[at]->name);
  }
}

void append_canonical_uri(std::string& out, std::string_view path) {
  if (path.empty()) {
    out.push_back('/');
  } else {
    append_uri_encoded(out, path, false);
  }
}

void append_canonical_query_string(std::string& out, const std::vector<QueryParameter>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& parameter : query)
    encoded.emplace_back(uri_encode(parameter.name, true), uri_encode(parameter.value, true));
  std::sort(encoded.begin(), encoded.end());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (i > 0) out += '&';
    out += encoded[i].first;
    out += '=';  // "?uploads" signs as "uploads="
    out += encoded[i].second;
  }
}

}  // namespace

std::string canonical_uri(std::string_view path) {
  std::string out;
  out.reserve(3 * path.size() + 1);
  append_canonical_uri(out, path);
  return out;
}

std::string canonical_query_string(const std::vector<QueryParameter>& query) {
  std::string out;
  append_canonical_query_string(out, query);
  return out;
}

std::string canonical_headers(const std::vector<Header>& headers) {
  std::string out;
  append_canonical_headers(out, sorted_by_name(headers));
  return out;
}

std::string signed_headers(const std::vector<Header>& headers) {
  std::string out;
  std::size_t capacity = 0;
  for (const auto& header : headers) capacity += header.name.size() + 1;
  out.reserve(capacity);
  append_signed_headers(out, sorted_by_name(headers));
  return out;
}

std::string canonical_request(const RequestToSign& request) {
  // Room for the worst case (every path and query byte %-encoded), so the string is allocated once.
  std::size_t capacity = request.method.size() + 3 * request.path.size() + request.payload_hash.size() + 8;
  for (const auto& parameter : request.query)
    capacity += 3 * (parameter.name.size() + parameter.value.size()) + 2;
  for (const auto& header : request.headers) capacity += 2 * header.name.size() + header.value.size() + 3;
  std::string out;
  out.reserve(capacity);
  out += request.method;
  out += '\n';
  append_canonical_uri(out, request.path);
  out += '\n';
  append_canonical_query_string(out, request.query);
  out += '\n';
  const std::vector<const Header*> sorted = sorted_by_name(request.headers);
  append_canonical_headers(out, sorted);  // ends with '\n': the blank line follows
  out += '\n';
  append_signed_headers(out, sorted);
  out += '\n';
  out += request.payload_hash;
  return out;
}

}  // namespace s3up::sigv4
