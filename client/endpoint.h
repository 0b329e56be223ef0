// client/endpoint.h: the endpoint URL (scheme, host, port, path prefix) and how a bucket and key become the
// request's URL, Host header and canonical path under path-style or virtual-hosted addressing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "s3up/client.h"
#include "s3up/sigv4.h"

namespace s3up {

struct Endpoint {
  bool https = true;
  std::string host;          // lowercase; IPv6 literals keep their brackets: "[::1]"
  std::uint16_t port = 443;  // explicit, or the scheme's default
  std::string path_prefix;   // raw (decoded) path before the bucket: "" or "/prefix", no trailing '/'

  bool default_port() const { return port == (https ? 443 : 80); }
  // AWS endpoints (the host is amazonaws.com or under it) take virtual-hosted addressing.
  bool is_aws() const;
  // host, plus ":port" when the port is not the scheme's default: the Host header, signed as sent.
  std::string authority(std::string_view host_name) const;
};

// http or https only; host (a name, IPv4 or a bracketed IPv6 literal), optional port (1-65535) and path.
// No user info, query or fragment. Anything else: Error{invalid_argument}.
Result<Endpoint> parse_endpoint(std::string_view url);

// https://s3.<region>.amazonaws.com
std::string default_endpoint_url(std::string_view region);

// A bucket name usable as a DNS label set in front of the endpoint's host: lowercase letters, digits and
// hyphens, 3-63 characters, starting and ending with a letter or digit; dots only over plain HTTP (a dotted
// name breaks the *.s3.amazonaws.com wildcard certificate).
bool dns_compatible_bucket(std::string_view bucket, bool https);

// Virtual-hosted when asked, or under automatic for AWS endpoints and DNS-compatible buckets.
bool use_virtual_hosting(Addressing addressing, const Endpoint& endpoint, std::string_view bucket);

struct RequestTarget {
  std::string host;  // the Host header value, exactly as sent and signed
  std::string path;  // raw (decoded) absolute path, for the canonical request
  std::string url;   // what curl requests: the path URI-encoded once, like the canonical URI, then the query
  std::vector<sigv4::QueryParameter> query;  // raw (decoded), signed in the canonical query string
};

// key may be empty for bucket requests ("/bucket" path-style, "/" virtual-hosted).
RequestTarget make_target(const Endpoint& endpoint, Addressing addressing, std::string_view bucket,
                          std::string_view key);

// Appends a query parameter (multipart sub-resources: ?uploads, ?uploadId=..&partNumber=..) to the URL,
// encoded as the canonical query string encodes it, and to the parameters to sign. An empty value is sent
// as the bare name ("?uploads"), which signs as "uploads=".
void add_query(RequestTarget& target, std::string name, std::string value);

}  // namespace s3up
