// raw_http_client.h: a minimal blocking HTTP/1.1 client over a raw socket, plain TCP or TLS (OpenSSL,
// trusting one PEM certificate and checking it names 127.0.0.1), for tests that must control every byte
// sent to a server and see every byte of its answer. Header-only; test code only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3up::test {

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // The first header of that name (any case), or nullopt.
  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [n, v] : headers) {
      if (n.size() != name.size()) continue;
      bool same = true;
      for (std::size_t i = 0; i < n.size() && same; ++i)
        same = std::tolower(static_cast<unsigned char>(n[i])) ==
               std::tolower(static_cast<unsigned char>(name[i]));
      if (same) return v;
    }
    return std::nullopt;
  }
  // The text of <Code> in an S3 error body ("" if none).
  std::string error_code() const { return element("Code"); }
  std::string element(std::string_view name) const {
    std::string open = "<" + std::string(name) + ">";
    std::string close = "</" + std::string(name) + ">";
    auto begin = body.find(open);
    if (begin == std::string::npos) return "";
    begin += open.size();
    auto end = body.find(close, begin);
    return end == std::string::npos ? "" : body.substr(begin, end - begin);
  }
};

class RawHttpConnection {
 public:
  // trusted_pem empty: plain TCP. Otherwise TLS, verifying the server against that certificate and 127.0.0.1.
  explicit RawHttpConnection(std::uint16_t port, const std::string& trusted_pem = "") {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      close();
      throw std::runtime_error("connect failed");
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // A server that never answers fails the test (no response) instead of hanging it until ctest's timeout.
    timeval patience{60, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
    if (trusted_pem.empty()) return;
    try {
      start_tls(trusted_pem);
    } catch (...) {
      close();  // the destructor does not run for a constructor that throws
      throw;
    }
  }
  ~RawHttpConnection() { close(); }
  RawHttpConnection(const RawHttpConnection&) = delete;
  RawHttpConnection& operator=(const RawHttpConnection&) = delete;

  // False if the server stopped reading (it may already have answered: read the response anyway).
  bool send(std::string_view bytes) {
    while (!bytes.empty()) {
      long n;
      errno = 0;
      if (ssl_) {
        n = SSL_write(ssl_, bytes.data(), static_cast<int>(std::min<std::size_t>(bytes.size(), 1 << 20)));
        if (n <= 0) ERR_clear_error();
      } else {
        n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      }
      if (n <= 0) {
        note_error(n);
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // Ends our side of the connection (a client that stops sending mid-body).
  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }

  // The errno of the first send or read that failed (ECONNRESET: the server reset the connection; EAGAIN:
  // the receive timeout expired), or 0 if none did (an orderly close reads as end of stream, not an error).
  int socket_error() const { return socket_error_; }
  // How long a read waits for the server before read_response gives up (the default is 60 s).
  void set_receive_timeout(int timeout_ms) {
    timeval patience{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  }

  // Reads one final response (skipping 1xx unless stop_at_interim). nullopt if the connection closed first.
  std::optional<HttpResponse> read_response(bool head_request = false, bool stop_at_interim = false) {
    for (;;) {
      auto head_end = buffer_.find("\r\n\r\n");
      while (head_end == std::string::npos) {
        if (!fill()) return std::nullopt;
        head_end = buffer_.find("\r\n\r\n");
      }
      HttpResponse response;
      std::string head = buffer_.substr(0, head_end);
      buffer_.erase(0, head_end + 4);
      std::size_t line_end = head.find("\r\n");
      std::string status_line = head.substr(0, line_end);
      if (status_line.size() < 12 || status_line.compare(0, 5, "HTTP/") != 0) return std::nullopt;
      response.status = std::stoi(status_line.substr(9, 3));
      while (line_end != std::string::npos) {
        std::size_t next = head.find("\r\n", line_end + 2);
        std::string line =
            head.substr(line_end + 2, next == std::string::npos ? std::string::npos : next - line_end - 2);
        auto colon = line.find(':');
        if (colon != std::string::npos) {
          std::string value = line.substr(colon + 1);
          while (!value.empty() && value.front() == ' ') value.erase(0, 1);
          response.headers.emplace_back(line.substr(0, colon), value);
        }
        line_end = next;
      }
      if (response.status >= 100 && response.status < 200) {
        if (stop_at_interim) return response;
        continue;
      }
      if (head_request || response.status == 204 || response.status == 304) return response;
      if (auto length = response.header("Content-Length")) {
        std::size_t want = std::stoull(*length);
        while (buffer_.size() < want)
          if (!fill()) return std::nullopt;
        response.body = buffer_.substr(0, want);
        buffer_.erase(0, want);
      } else {
        while (fill()) {
        }
        response.body = std::move(buffer_);
        buffer_.clear();
      }
      return response;
    }
  }

  // True once the server has closed its side (a read returns end of stream) within timeout_ms.
  bool server_closed(int timeout_ms) {
    if (!buffer_.empty()) return false;
    pollfd p{fd_, POLLIN, 0};
    if (!ssl_ || SSL_pending(ssl_) == 0) {
      if (::poll(&p, 1, timeout_ms) <= 0) return false;
    }
    return !fill();
  }

  void close() {
    if (ssl_) SSL_free(ssl_);
    if (ctx_) SSL_CTX_free(ctx_);
    ssl_ = nullptr;
    ctx_ = nullptr;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  void start_tls(const std::string& trusted_pem) {
    ctx_ = SSL_CTX_new(TLS_client_method());
    if (!ctx_) throw std::runtime_error("SSL_CTX_new failed");
    BIO* bio = BIO_new_mem_buf(trusted_pem.data(), static_cast<int>(trusted_pem.size()));
    X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!cert || X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx_), cert) != 1) {
      X509_free(cert);
      throw std::runtime_error("cannot load the trusted certificate");
    }
    X509_free(cert);
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    ssl_ = SSL_new(ctx_);
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_), "127.0.0.1");
    SSL_set_fd(ssl_, fd_);
    if (SSL_connect(ssl_) != 1 || SSL_get_verify_result(ssl_) != X509_V_OK) {
      char reason[256] = "";
      ERR_error_string_n(ERR_get_error(), reason, sizeof reason);
      throw std::runtime_error(std::string("TLS handshake failed: ") + reason);
    }
  }

  bool fill() {
    char chunk[65536];
    errno = 0;
    long n = ssl_ ? SSL_read(ssl_, chunk, sizeof chunk) : ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
      note_error(n);
      ERR_clear_error();
      return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  // After a failed send or read that returned n: keep the first socket error.
  void note_error(long n) {
    int error = errno;
    if (ssl_) {
      if (SSL_get_error(ssl_, static_cast<int>(n)) != SSL_ERROR_SYSCALL) return;
    } else if (n == 0) {
      return;
    }
    if (socket_error_ == 0 && error != 0) socket_error_ = error;
  }

  int fd_ = -1;
  int socket_error_ = 0;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  std::string buffer_;
};

}  // namespace s3up::test
