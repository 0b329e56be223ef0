// endpoint.cpp: endpoint URL parsing and bucket addressing (path-style or virtual-hosted).
#include "client/endpoint.h"

#include <string>
#include <string_view>
#include <utility>

#include "client/error.h"
#include "client/provider_profile.h"
#include "s3up/sigv4.h"

namespace s3up {
namespace {

Error invalid_endpoint(std::string_view url, std::string_view why) {
  return make_error(Error::Kind::invalid_argument, "InvalidEndpoint",
                    "invalid endpoint URL \"" + endpoint_for_display(url) + "\": " + std::string(why));
}

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals_prefix(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && ascii_iequals(text.substr(0, prefix.size()), prefix);
}

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

}  // namespace

std::string endpoint_for_display(std::string_view endpoint_url) {
  std::string shown(endpoint_url);
  const std::size_t scheme_end = shown.find("://");
  const std::size_t authority = scheme_end == std::string::npos ? 0 : scheme_end + 3;
  const std::size_t at = shown.find('@', authority);
  if (at != std::string::npos && at < shown.find_first_of("/?#", authority))
    shown.replace(authority, at - authority, "...");
  return shown;
}

bool Endpoint::is_aws() const {
  return provider_of_host(host) == Provider::aws;
}

std::string Endpoint::authority(std::string_view host_name) const {
  std::string text(host_name);
  if (!default_port()) text += ":" + std::to_string(port);
  return text;
}

Result<Endpoint> parse_endpoint(std::string_view url) {
  Endpoint endpoint;
  std::string_view rest;
  if (iequals_prefix(url, "https://")) {
    endpoint.https = true;
    rest = url.substr(8);
  } else if (iequals_prefix(url, "http://")) {
    endpoint.https = false;
    rest = url.substr(7);
  } else {
    return invalid_endpoint(url, "the scheme must be http:// or https://");
  }
  endpoint.port = endpoint.https ? 443 : 80;

  std::size_t authority_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, authority_end);
  std::string_view path = authority_end == std::string_view::npos ? "" : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos)
    return invalid_endpoint(url, "user info is not supported");

  std::string_view port_text;
  if (authority.starts_with("[")) {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid_endpoint(url, "unterminated IPv6 literal");
    std::string_view literal = authority.substr(1, close - 1);
    if (literal.find(':') == std::string_view::npos) return invalid_endpoint(url, "bad IPv6 literal");
    for (char c : literal) {
      char l = lower(c);
      if (!is_hex(l) && l != ':' && l != '.') return invalid_endpoint(url, "bad IPv6 literal");
      endpoint.host.push_back(l);
    }
    endpoint.host = "[" + endpoint.host + "]";
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return invalid_endpoint(url, "unexpected text after the IPv6 literal");
      port_text = after.substr(1);
      if (port_text.empty()) return invalid_endpoint(url, "empty port");
    }
  } else {
    std::size_t colon = authority.find(':');
    std::string_view name = authority.substr(0, colon);
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return invalid_endpoint(url, "empty port");
    }
    for (char c : name) {
      char l = lower(c);
      if (!is_alnum(l) && l != '-' && l != '.' && l != '_')
        return invalid_endpoint(url, "bad character in host");
      endpoint.host.push_back(l);
    }
    if (endpoint.host.empty() || endpoint.host.front() == '.' ||
        endpoint.host.find("..") != std::string::npos) {
      return invalid_endpoint(url, "missing or malformed host");
    }
  }

  if (!port_text.empty()) {
    unsigned long port = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9' || port > 65535) return invalid_endpoint(url, "bad port");
      port = port * 10 + static_cast<unsigned long>(c - '0');
    }
    if (port == 0 || port > 65535) return invalid_endpoint(url, "port out of range");
    endpoint.port = static_cast<std::uint16_t>(port);
  }

  if (path.find_first_of("?#") != std::string_view::npos) {
    return invalid_endpoint(url, "a query or fragment is not allowed");
  }
  // The prefix is kept raw (decoded) because it becomes part of the canonical path, which is encoded once.
  auto decoded = sigv4::uri_decode(path);
  if (!decoded) return invalid_endpoint(url, "malformed percent-encoding in the path");
  endpoint.path_prefix = std::move(*decoded);
  while (!endpoint.path_prefix.empty() && endpoint.path_prefix.back() == '/') endpoint.path_prefix.pop_back();
  return endpoint;
}

std::string default_endpoint_url(std::string_view region) {
  return "https://s3." + std::string(region) + ".amazonaws.com";
}

bool dns_compatible_bucket(std::string_view bucket, bool https) {
  if (bucket.size() < 3 || bucket.size() > 63) return false;
  if (!is_alnum(bucket.front()) || !is_alnum(bucket.back())) return false;
  char previous = 0;
  for (char c : bucket) {
    if (c == '.') {
      if (https || previous == '.' || previous == '-') return false;
    } else if (c == '-') {
      if (previous == '.') return false;
    } else if (!is_alnum(c)) {
      return false;
    }
    previous = c;
  }
  return true;
}

bool use_virtual_hosting(Addressing addressing, const Endpoint& endpoint, std::string_view bucket) {
  switch (addressing) {
    case Addressing::path_style:
      return false;
    case Addressing::virtual_hosted:
      return true;
    case Addressing::automatic:
      return endpoint.is_aws() && dns_compatible_bucket(bucket, endpoint.https);
  }
  return false;
}

RequestTarget make_target(const Endpoint& endpoint, Addressing addressing, std::string_view bucket,
                          std::string_view key) {
  RequestTarget target;
  target.path = endpoint.path_prefix;
  if (use_virtual_hosting(addressing, endpoint, bucket)) {
    target.host = endpoint.authority(std::string(bucket) + "." + endpoint.host);
    target.path += "/";
    target.path += key;
  } else {
    target.host = endpoint.authority(endpoint.host);
    target.path += "/";
    target.path += bucket;
    if (!key.empty()) {
      target.path += "/";
      target.path += key;
    }
  }
  target.url =
      (endpoint.https ? "https://" : "http://") + target.host + sigv4::uri_encode(target.path, false);
  return target;
}

void add_query(RequestTarget& target, std::string name, std::string value) {
  target.url += target.query.empty() ? '?' : '&';
  target.url += sigv4::uri_encode(name, true);
  if (!value.empty()) target.url += "=" + sigv4::uri_encode(value, true);
  target.query.push_back({std::move(name), std::move(value)});
}

}  // namespace s3up
