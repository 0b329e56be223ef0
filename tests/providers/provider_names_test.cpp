// provider_names_test.cpp: the provider and emulation names as the command line spells them, and which
// provider an endpoint's host names (the hosts are the services' documented endpoint forms).
#include <catch2/catch.hpp>

#include <string>

#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;

TEST_CASE("detect_provider names the service from the endpoint host where that is unambiguous") {
  struct Row {
    const char* endpoint;
    Provider expected;
  };
  const Row rows[] = {
      {"", Provider::aws},  // no endpoint: the AWS default
      {"https://s3.eu-west-1.amazonaws.com", Provider::aws},
      {"https://S3.US-EAST-1.AMAZONAWS.COM/", Provider::aws},  // hosts compare in any case
      {"https://bucket.s3.dualstack.us-east-2.amazonaws.com:443", Provider::aws},
      {"https://0123456789abcdef.r2.cloudflarestorage.com", Provider::r2},
      {"https://0123456789abcdef.eu.r2.cloudflarestorage.com", Provider::r2},
      {"https://s3.us-west-004.backblazeb2.com", Provider::b2},
      {"https://s3.eu-central-1.wasabisys.com", Provider::wasabi},
      {"https://s3.wasabisys.com", Provider::wasabi},
      {"https://s3.fr-par.scw.cloud", Provider::scaleway},
      {"https://storage.googleapis.com", Provider::gcs},
      // MinIO and Ceph run under any name: never detected.
      {"http://127.0.0.1:9000", Provider::generic},
      {"https://minio.example.com", Provider::generic},
      {"https://rgw.ceph.example.org:8443/prefix", Provider::generic},
      // Only a whole label matches: look-alike hosts are not the service.
      {"https://notamazonaws.com", Provider::generic},
      {"https://amazonaws.com.example.net", Provider::generic},
      {"https://evilscw.cloud", Provider::generic},
      {"https://googleapis.com", Provider::generic},
      // An endpoint that does not parse names nothing.
      {"ftp://s3.amazonaws.com", Provider::generic},
      {"not a url", Provider::generic},
  };
  for (const Row& row : rows) {
    INFO(row.endpoint);
    CHECK(detect_provider(row.endpoint) == row.expected);
  }
}

TEST_CASE("provider names round-trip in any case, and auto and automatic both mean detection") {
  const std::pair<Provider, const char*> names[] = {
      {Provider::automatic, "auto"},  {Provider::aws, "aws"},       {Provider::minio, "minio"},
      {Provider::ceph, "ceph"},       {Provider::wasabi, "wasabi"}, {Provider::scaleway, "scaleway"},
      {Provider::r2, "r2"},           {Provider::b2, "b2"},         {Provider::gcs, "gcs"},
      {Provider::generic, "generic"},
  };
  for (const auto& [provider, name] : names) {
    INFO(name);
    CHECK(to_string(provider) == name);
    CHECK(parse_provider(name) == provider);
  }
  CHECK(parse_provider("AUTOMATIC") == Provider::automatic);
  CHECK(parse_provider("Auto") == Provider::automatic);
  CHECK(parse_provider("MinIO") == Provider::minio);
  CHECK(parse_provider("R2") == Provider::r2);
  CHECK_FALSE(parse_provider("s3"));
  CHECK_FALSE(parse_provider(""));
  CHECK_FALSE(parse_provider("b2 "));
  CHECK(ClientConfig{}.provider == Provider::automatic);
}

TEST_CASE("emulation names round-trip in any case, and aws is the default") {
  const std::pair<mock::Emulation, const char*> names[] = {
      {mock::Emulation::aws, "aws"},
      {mock::Emulation::minio, "minio"},
      {mock::Emulation::ceph, "ceph"},
      {mock::Emulation::wasabi, "wasabi"},
      {mock::Emulation::scaleway, "scaleway"},
      {mock::Emulation::r2, "r2"},
      {mock::Emulation::b2, "b2"},
      {mock::Emulation::gcs, "gcs"},
  };
  for (const auto& [emulation, name] : names) {
    INFO(name);
    CHECK(mock::to_string(emulation) == name);
    CHECK(mock::parse_emulation(name) == emulation);
  }
  CHECK(mock::parse_emulation("SCALEWAY") == mock::Emulation::scaleway);
  CHECK_FALSE(mock::parse_emulation("generic"));  // nothing to emulate: it is what s3up assumes
  CHECK_FALSE(mock::parse_emulation("auto"));
  CHECK(mock::ServerOptions{}.emulate == mock::Emulation::aws);
}
