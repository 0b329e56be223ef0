// tls_trust_test.cpp: which certificates the client trusts, against the mock server's self-signed HTTPS:
// ClientConfig::ca_bundle first, then AWS_CA_BUNDLE, then curl's built-in default; never the variables only
// other programs read (CURL_CA_BUNDLE is the curl tool's, SSL_CERT_FILE/SSL_CERT_DIR OpenSSL's default paths,
// which libcurl does not load); and verification off only when asked.
#include <catch2/catch.hpp>

#include <string>

#include "env_guard.h"
#include "integration_support.h"
#include "s3up/client.h"
#include "s3up/mock_server.h"

using namespace s3up;
using test::EnvGuard;

namespace {

mock::Server https_server() {
  mock::ServerOptions options;
  options.tls = true;
  return mock::Server(options);
}

Result<PutObjectResult> put(const ClientConfig& config) {
  Client client(config);
  const auto data = test::make_data(1000, 40);
  MemorySource source{std::span<const std::byte>(data)};
  return client.put_object("trust", "key", source);
}

// Every variable that could name a CA bundle, pointed at path.
void point_ca_variables_at(EnvGuard& env, const std::string& path) {
  for (const char* name : {"AWS_CA_BUNDLE", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"}) {
    env.set(name, path);
  }
}

}  // namespace

TEST_CASE("TLS verification fails without the server's CA", "[client][integration][tls]") {
  mock::Server tls = https_server();
  auto result = put(test::config_for(tls));  // no ca_bundle: AWS_CA_BUNDLE or curl's default
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == Error::Kind::tls);
  CHECK_FALSE(result.error().code.empty());
  CHECK_FALSE(result.error().message.empty());
  CHECK(tls.object_count() == 0);

  // verify_tls = false accepts it (and logs a warning).
  ClientConfig insecure = test::config_for(tls);
  insecure.verify_tls = false;
  auto accepted = put(insecure);
  if (!accepted) FAIL(accepted.error().to_string());
  CHECK(tls.object_count() == 1);
}

TEST_CASE("an explicit ca_bundle beats every CA environment variable", "[client][integration][tls]") {
  mock::Server tls = https_server();
  mock::Server other = https_server();  // its own self-signed certificate
  test::TempFile server_ca(tls.certificate_pem());
  test::TempFile other_ca(other.certificate_pem());
  EnvGuard env;

  // The environment names a file that does not exist: the explicit bundle alone decides, and it trusts.
  point_ca_variables_at(env, "/nonexistent/s3up-ca.pem");
  auto trusted = put(test::config_for(tls, server_ca.path()));
  if (!trusted) FAIL(trusted.error().to_string());

  // The environment names the right certificate, the explicit bundle a wrong one: refused.
  point_ca_variables_at(env, server_ca.path());
  auto refused = put(test::config_for(tls, other_ca.path()));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == Error::Kind::tls);
}

TEST_CASE("AWS_CA_BUNDLE is honoured when ca_bundle is empty but curl's and OpenSSL's variables are not",
          "[client][integration][tls]") {
  mock::Server tls = https_server();
  test::TempFile server_ca(tls.certificate_pem());
  EnvGuard env;
  env.unset("AWS_CA_BUNDLE");
  env.set("CURL_CA_BUNDLE", server_ca.path());
  env.set("SSL_CERT_FILE", server_ca.path());
  auto ignored = put(test::config_for(tls));  // curl's built-in default bundle does not hold the certificate
  REQUIRE_FALSE(ignored);
  CHECK(ignored.error().kind == Error::Kind::tls);

  env.set("AWS_CA_BUNDLE", server_ca.path());
  auto trusted = put(test::config_for(tls));
  if (!trusted) FAIL(trusted.error().to_string());
  CHECK(tls.object_count() == 1);
}
