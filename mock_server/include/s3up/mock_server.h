// s3up/mock_server.h: the mock S3 server module. A strict local S3 endpoint (HTTP/1.1 keep-alive, plain TCP
// or TLS on loopback) for tests and the demo. It verifies SigV4 (header, chunk and trailer signatures),
// decodes aws-chunked bodies (with Content-Length or inside Transfer-Encoding: chunked), verifies every
// checksum (trailer, x-amz-checksum-* header, Content-MD5, hex x-amz-content-sha256), answers S3 XML errors
// and stores nothing from a request that failed any check.
//
// It shares only the checksum and sigv4 modules with the client.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace spdlog {
class logger;
}

namespace s3up::mock {

// The credentials the server accepts by default (AWS's documented example key pair).
inline constexpr const char* default_access_key = "AKIAIOSFODNN7EXAMPLE";
inline constexpr const char* default_secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

// Every member has an initializer: designated initializers compile warning-free under -Wextra.
struct ServerOptions {
  std::string listen_host = "127.0.0.1";
  std::uint16_t port = 0;  // 0: the kernel picks one; see Server::port()
  bool tls = false;        // HTTPS with a self-signed certificate for 127.0.0.1 and localhost, made at start
  std::string cert_out{};  // if set, the certificate (PEM) is written there so clients can trust it
  std::string access_key = default_access_key;
  std::string secret_key = default_secret_key;
  std::string region = "us-east-1";
  std::string data_dir{};           // empty: objects live in memory
  bool auto_create_buckets = true;  // a PUT of an object creates its bucket
  bool reject_trailers = false;     // refuse aws-chunked trailers, as Scaleway does
  bool check_clock_skew = true;     // false: accept any x-amz-date (replaying fixed-date test vectors)
  // A PutObject body larger than this is refused with EntityTooLarge (S3's single-PUT limit). An upload
  // to the memory store holds its whole size in memory: lower this to bound what one request can take.
  std::uint64_t max_object_size = 5ULL << 30;
  // A client that stops sending mid-request for this long gets RequestTimeout; one that stops reading a
  // response is cut off; an idle keep-alive connection is closed (S3 does all three). 0: wait forever.
  int idle_timeout_ms = 20000;
  std::shared_ptr<spdlog::logger> logger{};  // nullptr: spdlog's default logger
};

struct StoredObject {
  std::uint64_t size = 0;
  std::string etag;  // quoted hex MD5, as S3 sends it
  std::string content_type;
  // The checksum the object was stored with, as S3 echoes it ("x-amz-checksum-crc32", base64).
  std::optional<std::pair<std::string, std::string>> checksum;
};

struct ServerStats {
  std::uint64_t requests = 0;
  std::uint64_t rejected = 0;    // answered with an error status
  std::uint64_t body_bytes = 0;  // request body bytes received, before decoding
};

class Server {
 public:
  // Binds and starts serving on a background thread. Throws std::runtime_error if it cannot.
  explicit Server(ServerOptions options = {});
  ~Server();  // stops and joins
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  std::string url() const;  // "http://127.0.0.1:45123" or "https://..."
  std::uint16_t port() const;
  const std::string& certificate_pem() const;  // empty without TLS
  const ServerOptions& options() const;

  // What is stored, for tests: metadata, and the bytes themselves.
  std::optional<StoredObject> object(const std::string& bucket, const std::string& key) const;
  std::optional<std::vector<std::byte>> object_data(const std::string& bucket, const std::string& key) const;
  std::size_t object_count() const;
  ServerStats stats() const;
  // The S3 error code of the most recent rejected request ("" if none), for tests.
  std::string last_error_code() const;

  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace s3up::mock
