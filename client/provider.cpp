// provider.cpp: the names of the S3 services s3up knows (Provider) and which one an endpoint's host names.
#include <array>
#include <string_view>
#include <utility>

#include "client/endpoint.h"
#include "client/provider_profile.h"
#include "s3up/checksum.h"
#include "s3up/client.h"

namespace s3up {
namespace {

constexpr std::array<std::pair<Provider, std::string_view>, 10> provider_names{{
    {Provider::automatic, "auto"},
    {Provider::aws, "aws"},
    {Provider::minio, "minio"},
    {Provider::ceph, "ceph"},
    {Provider::wasabi, "wasabi"},
    {Provider::scaleway, "scaleway"},
    {Provider::r2, "r2"},
    {Provider::b2, "b2"},
    {Provider::gcs, "gcs"},
    {Provider::generic, "generic"},
}};

// Hosts that name their service without doubt: a suffix of the host at a label boundary, or the whole host.
// MinIO and Ceph serve under any name, so they are never detected.
constexpr std::array<std::pair<std::string_view, Provider>, 6> provider_hosts{{
    {"amazonaws.com", Provider::aws},
    {"r2.cloudflarestorage.com", Provider::r2},
    {"backblazeb2.com", Provider::b2},
    {"wasabisys.com", Provider::wasabi},
    {"scw.cloud", Provider::scaleway},
    {"storage.googleapis.com", Provider::gcs},
}};

bool host_in_domain(std::string_view host, std::string_view domain) {
  if (host == domain) return true;
  return host.size() > domain.size() && host.ends_with(domain) &&
         host[host.size() - domain.size() - 1] == '.';
}

}  // namespace

std::string_view to_string(Provider provider) {
  for (const auto& [value, name] : provider_names) {
    if (value == provider) return name;
  }
  return "unknown";
}

std::optional<Provider> parse_provider(std::string_view name) {
  if (ascii_iequals(name, "automatic")) return Provider::automatic;
  for (const auto& [value, text] : provider_names) {
    if (ascii_iequals(name, text)) return value;
  }
  return std::nullopt;
}

Provider provider_of_host(std::string_view host) {
  for (const auto& [domain, provider] : provider_hosts) {
    if (host_in_domain(host, domain)) return provider;
  }
  return Provider::generic;
}

Provider detect_provider(std::string_view endpoint_url) {
  // No endpoint: the SDKs' default, AWS's own endpoint of the region.
  if (endpoint_url.empty()) return Provider::aws;
  auto endpoint = parse_endpoint(endpoint_url);
  return endpoint ? provider_of_host(endpoint->host) : Provider::generic;
}

}  // namespace s3up
