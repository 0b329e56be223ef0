// s3up/mock_server.h: the mock S3 server module. A strict local S3 endpoint (HTTP/1.1 keep-alive, plain TCP
// or TLS on loopback) for tests and the demo. It verifies SigV4 (header, chunk and trailer signatures),
// decodes aws-chunked bodies (with Content-Length or inside Transfer-Encoding: chunked), verifies every
// checksum (trailer, x-amz-checksum-* header, Content-MD5, hex x-amz-content-sha256), answers S3 XML errors
// and stores nothing from a request that failed any check.
//
// It shares only the checksum and sigv4 modules with the client.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spdlog {
class logger;
}

namespace s3up::mock {

// The credentials the server accepts by default (AWS's documented example key pair).
inline constexpr const char* default_access_key = "AKIAIOSFODNN7EXAMPLE";
inline constexpr const char* default_secret_key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

// The S3 service the server behaves as: it refuses what that service is documented or reported to refuse,
// with the error that service answers (mock_server/emulation.cpp; ../shared/s3-compatibility.md). aws
// refuses nothing S3 accepts. minio: aws-chunked chunks over 16 MiB. ceph: releases before trailer support,
// trailers. wasabi: aws-chunked bodies, CRC32C. scaleway: trailers. r2: CRC64NVME, signed streaming. b2:
// every x-amz-checksum-*, x-amz-sdk-checksum-algorithm and x-amz-trailer header. gcs: trailers.
enum class Emulation { aws, minio, ceph, wasabi, scaleway, r2, b2, gcs };
std::string_view to_string(Emulation emulation);                  // "aws", "minio", ...
std::optional<Emulation> parse_emulation(std::string_view name);  // any case

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
  bool reject_trailers = false;     // refuse aws-chunked trailers, as Scaleway does (emulate scaleway)
  bool check_clock_skew = true;     // false: accept any x-amz-date (replaying fixed-date test vectors)
  // Refuse what that service refuses (see Emulation).
  Emulation emulate = Emulation::aws;
  // A PutObject body larger than this is refused with EntityTooLarge (S3's single-PUT limit). An upload
  // to the memory store holds its whole size in memory: lower this to bound what one request can take.
  std::uint64_t max_object_size = 5ULL << 30;
  // true: an object's ETag is the quoted hex MD5 of its bytes, as S3 makes it for unencrypted single-part
  // objects. MD5 runs at ~0.7 GB/s on one core and would cap the server's ingest; false skips it (unless the
  // request carries Content-MD5) and derives the ETag from the object's stored checksum, for benchmarks. S3's
  // ETags of multipart and SSE-KMS objects are not MD5 either, so clients must not rely on it.
  bool md5_etag = true;
  // Every part of a multipart upload but the last must be at least this big, or CompleteMultipartUpload
  // fails with EntityTooSmall (S3's 5 MiB). Tests lower it to run multipart on small objects.
  std::uint64_t min_part_size = 5ULL << 20;
  // A client that stops sending mid-request for this long gets RequestTimeout; one that stops reading a
  // response is cut off; an idle keep-alive connection is closed (S3 does all three). 0: wait forever.
  int idle_timeout_ms = 20000;
  std::shared_ptr<spdlog::logger> logger{};  // nullptr: spdlog's default logger
};

struct StoredObject {
  std::uint64_t size = 0;
  std::string etag;  // quoted hex MD5, as S3 sends it (see ServerOptions::md5_etag)
  std::string content_type;
  // The checksum the object was stored with, as S3 echoes it ("x-amz-checksum-crc32", base64).
  std::optional<std::pair<std::string, std::string>> checksum;
  std::string checksum_type;  // "FULL_OBJECT" or "COMPOSITE" (x-amz-checksum-type); "" without a checksum
  int parts = 0;              // 0: stored by one PutObject; else the part count of its multipart upload
};

// A fault for the server to inject into requests, so tests can prove what a client does when things go
// wrong. Server::inject_fault queues it; it hits the next `count` requests that match `method` (any when
// empty, compared case-insensitively), in the order queued: each request, once its head is parsed, takes
// the first queued fault it matches. error_response, malformed_response, close_before_response and
// reset_after_bytes replace the S3 operation: no signature check, nothing stored, created or replaced.
// slow_read, delay_response and ignore_expect shape a request that is otherwise served (and stored) as
// usual. After an answer the connection stays open if the client asked for keep-alive and its whole body
// was read; a close or reset ends it. inject_fault throws std::invalid_argument for a fault it cannot
// apply (count < 1, a status out of range, slow_read at 0 bytes per second, a negative delay).
struct Fault {
  enum class Kind {
    // Read the whole body, then answer `status` (300-599) with an S3 error document of `code` (S3's own
    // message for SlowDown, ServiceUnavailable, InternalError, RequestTimeout, RequestTimeTooSkewed).
    error_response,
    // Read `after_bytes` bytes of the body as on the wire after the head (HTTP chunked framing counts;
    // a body shorter than that is read whole), then reset the connection: SO_LINGER 0 and close, a TCP
    // RST, so the client sees ECONNRESET. 0: reset right after the head, before any 100 Continue.
    reset_after_bytes,
    // Read the whole request, then close the connection (FIN) without answering.
    close_before_response,
    // Read the body at no more than `bytes_per_second` on average (the socket a 20th of a second's worth at
    // a time, so TCP flow control stalls the sender), then handle it normally.
    slow_read,
    // Handle the request normally, the object stored included, then wait `delay` before answering (a 100
    // Continue is not delayed). A client that gives up meanwhile sees a timeout, yet the upload is stored.
    delay_response,
    // Read the whole body, then answer `status` (200-599 but 204, 304) with `body` verbatim as an
    // application/xml body of that Content-Length: garbage, cut XML, a 200 without an ETag.
    malformed_response,
    // Never answer Expect: 100-continue; handle the request normally once the client sends its body anyway.
    ignore_expect,
  };
  Kind kind = Kind::error_response;
  int status = 503;
  std::string code = "SlowDown";
  std::string body{};
  std::uint64_t after_bytes = 0;
  std::uint64_t bytes_per_second = 0;
  std::chrono::milliseconds delay{0};
  int count = 1;
  std::string method{};  // "PUT", "GET"...; empty: any
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
  // Multipart uploads created and neither completed nor aborted.
  std::size_t multipart_upload_count() const;

  // Fault injection (see Fault). Safe to call while requests are in flight.
  void inject_fault(Fault fault);
  void clear_faults();
  std::size_t pending_faults() const;  // requests still to be hit by queued faults

  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace s3up::mock
