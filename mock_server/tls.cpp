// tls.cpp: self-signed certificate generation and the server SSL_CTX (OpenSSL 3).
#include "tls.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <stdexcept>

namespace s3up::mock {

namespace {

struct PkeyDeleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct X509Deleter {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct BioDeleter {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct BnDeleter {
  void operator()(BIGNUM* bn) const { BN_free(bn); }
};
struct ExtensionDeleter {
  void operator()(X509_EXTENSION* ext) const { X509_EXTENSION_free(ext); }
};

[[noreturn]] void throw_openssl(const char* what) {
  unsigned long code = ERR_get_error();
  char reason[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, reason, sizeof reason);
  ERR_clear_error();
  throw std::runtime_error(std::string("mock S3 server TLS: ") + what + ": " + reason);
}

void add_extension(X509* cert, int nid, const char* value) {
  X509V3_CTX context;
  X509V3_set_ctx(&context, cert, cert, nullptr, nullptr, 0);
  std::unique_ptr<X509_EXTENSION, ExtensionDeleter> ext(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
  if (!ext || X509_add_ext(cert, ext.get(), -1) != 1) throw_openssl("certificate extension");
}

std::unique_ptr<X509, X509Deleter> make_certificate(EVP_PKEY* key) {
  std::unique_ptr<X509, X509Deleter> cert(X509_new());
  if (!cert || X509_set_version(cert.get(), X509_VERSION_3) != 1) throw_openssl("X509_new");

  // A random positive serial: clients that cached an earlier run's certificate must not see a clash.
  std::unique_ptr<BIGNUM, BnDeleter> serial(BN_new());
  if (!serial || BN_rand(serial.get(), 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
      !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())))
    throw_openssl("serial number");

  // Valid from an hour ago so that a client clock slightly behind still accepts it.
  if (!X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) ||
      !X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600))
    throw_openssl("validity");
  if (X509_set_pubkey(cert.get(), key) != 1) throw_openssl("public key");

  X509_NAME* name = X509_get_subject_name(cert.get());
  auto text = [](const char* s) { return reinterpret_cast<const unsigned char*>(s); };
  if (X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, text("s3up"), -1, -1, 0) != 1 ||
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, text("s3up mock S3 server"), -1, -1, 0) != 1 ||
      X509_set_issuer_name(cert.get(), name) != 1)
    throw_openssl("subject");

  // Trusted directly as its own anchor by clients (curl CAINFO, OpenSSL verify): it is its own CA.
  add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign");
  add_extension(cert.get(), NID_ext_key_usage, "serverAuth");
  add_extension(cert.get(), NID_subject_key_identifier, "hash");
  add_extension(cert.get(), NID_authority_key_identifier, "keyid:always");
  add_extension(cert.get(), NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost");

  if (X509_sign(cert.get(), key, EVP_sha256()) == 0) throw_openssl("X509_sign");
  return cert;
}

std::string to_pem(X509* cert) {
  std::unique_ptr<BIO, BioDeleter> bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) throw_openssl("PEM_write_bio_X509");
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

void TlsContext::ContextDeleter::operator()(ssl_ctx_st* context) const {
  SSL_CTX_free(context);
}

TlsContext::TlsContext() {
  std::unique_ptr<EVP_PKEY, PkeyDeleter> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  if (!key) throw_openssl("EC P-256 key generation");
  auto cert = make_certificate(key.get());
  certificate_pem_ = to_pem(cert.get());

  context_.reset(SSL_CTX_new(TLS_server_method()));
  if (!context_) throw_openssl("SSL_CTX_new");
  SSL_CTX_set_min_proto_version(context_.get(), TLS1_2_VERSION);
  SSL_CTX_set_mode(context_.get(), SSL_MODE_AUTO_RETRY);
  if (SSL_CTX_use_certificate(context_.get(), cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(context_.get(), key.get()) != 1 ||
      SSL_CTX_check_private_key(context_.get()) != 1)
    throw_openssl("server certificate");
}

TlsContext::~TlsContext() = default;

}  // namespace s3up::mock
