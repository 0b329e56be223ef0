// s3up/client.h: the client module. It owns the S3 requests over libcurl: configuration (endpoint,
// region, credentials, addressing, checksums, TLS, timeouts, logging), SigV4 signing of each request,
// streaming the body from an encoder through curl's read callback, and typed results and errors (HTTP status,
// S3 error code, message, request id) parsed from S3's XML error bodies.
//
// One curl easy handle per Client: calls on one Client are sequential and reuse its connections. A Client
// is not thread-safe; use one per thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "s3up/body.h"
#include "s3up/checksum.h"
#include "s3up/sigv4.h"

namespace spdlog {
class logger;
}

namespace s3up {

// A failure, with everything known about its cause.
struct Error {
  enum class Kind {
    invalid_argument,   // bad configuration, bucket, key or option; nothing was sent
    body,               // the body source failed, ended early, ran long or could not rewind
    network,            // connection, DNS, reset, timeout
    tls,                // certificate or handshake failure
    service,            // the server answered with an error status (see http_status, code)
    checksum_mismatch,  // the server stored a checksum other than the one we computed
    protocol,           // the server's answer could not be understood
  };

  Kind kind = Kind::invalid_argument;
  long http_status = 0;      // 0 when no HTTP answer arrived
  std::string code{};        // S3 error code (e.g. BadDigest), or the curl error name for network failures
  std::string message{};     // S3's message, or ours
  std::string request_id{};  // x-amz-request-id or <RequestId>
  std::string host_id{};     // x-amz-id-2 or <HostId>

  // One line for people: "service error 400 BadDigest: The CRC32 you specified ... (request id 1234)".
  std::string to_string() const;
};

std::string_view to_string(Error::Kind kind);

// A value or an Error. Small on purpose: C++20 has no std::expected.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(state_); }
  const T& value() const { return std::get<0>(state_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

// The fields of an S3 XML <Error> body; empty strings for missing elements.
struct S3ErrorBody {
  std::string code{};
  std::string message{};
  std::string request_id{};
  std::string host_id{};
};
// nullopt when the text is not an <Error> document.
std::optional<S3ErrorBody> parse_s3_error(std::string_view xml);

enum class Addressing {
  automatic,       // virtual-hosted for AWS endpoints when the bucket name allows it, path-style otherwise
  path_style,      // https://host/bucket/key
  virtual_hosted,  // https://bucket.host/key
};

// Every member of the option structs has an initializer, so designated initializers such as
// {.endpoint_url = ..., .region = ...} compile warning-free under -Wextra.
struct ClientConfig {
  // "https://s3.eu-west-1.amazonaws.com", "http://127.0.0.1:9000". Empty: AWS_ENDPOINT_URL_S3, then
  // AWS_ENDPOINT_URL, then the AWS endpoint of the region.
  std::string endpoint_url{};
  // Empty: AWS_REGION, then AWS_DEFAULT_REGION, then us-east-1.
  std::string region{};
  // nullopt: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.
  std::optional<sigv4::Credentials> credentials{};
  Addressing addressing = Addressing::automatic;

  // Checksums. nullopt algorithm: CRC32 under when_supported, none under when_required.
  std::optional<ChecksumAlgorithm> checksum_algorithm{};
  ChecksumLocation checksum_location = ChecksumLocation::automatic;
  // nullopt: AWS_REQUEST_CHECKSUM_CALCULATION, else when_supported.
  std::optional<ChecksumCalculation> checksum_calculation{};
  // Custom endpoints are assumed to refuse aws-chunked trailers (as Scaleway and B2 do); set this when the
  // endpoint is known to accept them so that automatic picks the trailer over HTTPS.
  bool endpoint_accepts_trailers = false;
  std::size_t chunk_size = default_chunk_size;

  // TLS. Verification is on unless turned off here. ca_bundle (a PEM file) is then the only trust store, as
  // with the AWS CLI's --ca-bundle; empty: AWS_CA_BUNDLE, else curl's default.
  bool verify_tls = true;
  std::string ca_bundle{};

  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds request_timeout{0};  // 0: no overall limit
  // A transfer that moves no byte, either way, for this long fails as a network error (a stalled server or
  // network), as botocore's 60 s read timeout does. 0: wait forever. Whole seconds (curl's granularity).
  std::chrono::seconds stall_timeout{60};

  // Logs requests at debug and the canonical request at trace; never a secret or a signature.
  // nullptr: spdlog's default logger.
  std::shared_ptr<spdlog::logger> logger{};
};

struct PutObjectOptions {
  // Per-call overrides of the ClientConfig values.
  std::optional<ChecksumAlgorithm> checksum_algorithm{};
  std::optional<ChecksumLocation> checksum_location{};
  // Sign the payload: hex SHA-256 in header mode, STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER] when streamed.
  bool signed_payload = false;
  // Also send Content-MD5 (needs a pre-read, so a rewindable source).
  bool content_md5 = false;
  std::string content_type{};
};

struct PutObjectResult {
  long http_status = 0;
  std::string etag{};
  std::string request_id{};
  std::uint64_t bytes = 0;  // object bytes sent (decoded length)
  std::optional<ChecksumAlgorithm> checksum_algorithm{};
  ChecksumLocation checksum_location = ChecksumLocation::none;  // where the checksum travelled
  std::string payload_mode{};   // the x-amz-content-sha256 value: a hex hash, UNSIGNED-PAYLOAD or a literal
  std::string checksum_sent{};  // base64, as sent in the header or trailer
  std::string checksum_returned{};  // base64, as the server echoed it (empty if it did not)
};

struct GetObjectResult {
  long http_status = 0;
  std::string etag{};
  std::string request_id{};
  std::uint64_t bytes = 0;
  std::vector<std::pair<std::string, std::string>> checksums{};  // x-amz-checksum-* response headers
};

class Client {
 public:
  explicit Client(ClientConfig config = {});
  ~Client();
  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;

  // Uploads body as bucket/key in one PUT. The source must have a known size. Success only when the server
  // answered 2xx, every body byte was sent, and any checksum it echoed equals the one sent.
  Result<PutObjectResult> put_object(std::string_view bucket, std::string_view key, BodySource& body,
                                     const PutObjectOptions& options = {});

  // Streams the object to sink (called with each received piece). Sends x-amz-checksum-mode: ENABLED.
  Result<GetObjectResult> get_object(std::string_view bucket, std::string_view key,
                                     const std::function<void(std::span<const std::byte>)>& sink);

  Result<long> create_bucket(std::string_view bucket);
  Result<long> delete_object(std::string_view bucket, std::string_view key);

  const ClientConfig& config() const;  // with the defaults and environment resolved

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace s3up
