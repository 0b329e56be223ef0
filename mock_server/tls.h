// tls.h: the server's TLS identity, made at start: a fresh EC P-256 key and a self-signed X509v3 certificate
// for IP:127.0.0.1 and DNS:localhost, valid from an hour ago for a year, and the SSL_CTX that serves it.
#pragma once

#include <memory>
#include <string>

struct ssl_ctx_st;

namespace s3up::mock {

class TlsContext {
 public:
  TlsContext();  // throws std::runtime_error with OpenSSL's reason
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  ssl_ctx_st* get() const { return context_.get(); }
  const std::string& certificate_pem() const { return certificate_pem_; }

 private:
  struct ContextDeleter {
    void operator()(ssl_ctx_st* context) const;
  };
  std::unique_ptr<ssl_ctx_st, ContextDeleter> context_;
  std::string certificate_pem_;
};

}  // namespace s3up::mock
