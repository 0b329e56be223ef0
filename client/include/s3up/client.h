// s3up/client.h: the client module. It owns the S3 requests over libcurl: configuration (endpoint,
// region, credentials, addressing, checksums, TLS, timeouts, logging), SigV4 signing of each request,
// streaming the body from an encoder through curl's read callback, and typed results and errors (HTTP status,
// S3 error code, message, request id) parsed from S3's XML error bodies.
//
// One curl easy handle per Client: calls on one Client are sequential and reuse its connections. A Client
// is not thread-safe (cancel() excepted); use one per thread.
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
    timeout,            // connect_timeout, stall_timeout or request_timeout ran out (see code)
    cancelled,          // Client::cancel() was called
  };

  Kind kind = Kind::invalid_argument;
  long http_status = 0;      // 0 when no HTTP answer arrived
  std::string code{};        // S3 error code (e.g. BadDigest), or the curl error name for network failures
  std::string message{};     // S3's message, or ours
  std::string request_id{};  // x-amz-request-id or <RequestId>
  std::string host_id{};     // x-amz-id-2 or <HostId>
  int attempts = 0;          // requests sent for this call, retries included (0: refused before sending)

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

// The S3 service behind the endpoint, which decides what an upload may send: several S3-compatible services
// refuse the checksums and payload modes that AWS's SDKs send by default (aws-chunked trailers, some
// x-amz-checksum-* algorithms, signed streaming). See client/provider_profile.cpp for what each one gets.
enum class Provider { automatic, aws, minio, ceph, wasabi, scaleway, r2, b2, gcs, generic };
std::string_view to_string(Provider provider);  // "auto", "aws", "minio", ... as on the command line
// Any case; "auto" and "automatic" give Provider::automatic. nullopt for an unknown name.
std::optional<Provider> parse_provider(std::string_view name);
// The provider an endpoint's host names where that is unambiguous: *.amazonaws.com -> aws,
// *.r2.cloudflarestorage.com -> r2, *.backblazeb2.com -> b2, *.wasabisys.com -> wasabi, *.scw.cloud ->
// scaleway, storage.googleapis.com -> gcs; an empty endpoint (AWS's default) -> aws; any other host ->
// generic (MinIO and Ceph run under any name).
Provider detect_provider(std::string_view endpoint_url);
// An endpoint URL as s3up quotes it in messages and logs: its user info ("https://user:password@host") shown
// as "...", so that a password written into the URL reaches neither.
std::string endpoint_for_display(std::string_view endpoint_url);

// How a failed request is tried again, after the AWS SDKs' "standard" retry mode. Retried: connection
// failures, resets, timeouts other than request_timeout, HTTP 500/502/503/504 (SlowDown included) and 400
// RequestTimeout; never another 4xx. Before each retry the body source is rewound and every checksum and the
// signature chain start afresh; a source that cannot rewind is not retried (Error::Kind::body). A
// RequestTimeTooSkewed answer corrects the client's clock from the server's Date header and retries once.
struct RetryPolicy {
  int max_attempts = 3;  // every request, the first included; 1 turns retrying off
  // Backoff before retry n (n = 1, 2, ...): a random time in [0, min(max_backoff, base_delay * 2^(n-1))],
  // "full jitter", so that many clients failing together do not retry together.
  std::chrono::milliseconds base_delay{100};
  std::chrono::milliseconds max_backoff{20'000};
};

inline constexpr std::size_t default_upload_buffer_size = 1024 * 1024;
inline constexpr std::size_t min_upload_buffer_size = 16 * 1024;  // curl's limits (CURLOPT_UPLOAD_BUFFERSIZE)
inline constexpr std::size_t max_upload_buffer_size = 2 * 1024 * 1024;
// Why curl would refuse `size` as its upload buffer, naming the option it was given in; nullopt if it fits.
std::optional<std::string> upload_buffer_size_problem(std::string_view option, std::size_t size);

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
  // What the service accepts (checksum algorithms, header or trailer, signed streaming, chunk size):
  // automatic detects it from endpoint_url (detect_provider). The provider picks the defaults; an explicit
  // choice it refuses (checksum_algorithm, checksum_location, signed_payload) fails before sending with
  // Error::Kind::invalid_argument. endpoint_accepts_trailers = true still lets a generic endpoint (or one
  // whose trailer support is unknown) use trailers.
  Provider provider = Provider::automatic;
  std::size_t chunk_size = default_chunk_size;
  // curl's upload buffer (CURLOPT_UPLOAD_BUFFERSIZE), which the body encoders fill directly: each read
  // callback hands over up to this many bytes. curl accepts 16 KiB to 2 MiB. 1 MiB: in ten end-to-end
  // sweeps one large stream ran a median 6% (up to 35%) faster than with curl's 64 KiB (README, "curl's
  // upload buffer"). upload() gives each part in flight a smaller one
  // (UploadOptions::part_upload_buffer_size).
  std::size_t upload_buffer_size = default_upload_buffer_size;

  // TLS. Verification is on unless turned off here. ca_bundle (a PEM file) is then the only trust store, as
  // with the AWS CLI's --ca-bundle; empty: AWS_CA_BUNDLE, else curl's default.
  bool verify_tls = true;
  std::string ca_bundle{};

  std::chrono::milliseconds connect_timeout{10'000};
  // The deadline of one call as a whole: every attempt and every backoff. 0: no overall limit.
  std::chrono::milliseconds request_timeout{0};
  // A transfer that moves no byte, either way, for this long fails as Error{timeout, "stall_timeout"} (a
  // stalled server or network), as botocore's 60 s read timeout does, and is retried. 0: wait forever.
  // Whole seconds (curl's granularity; curl averages the speed over up to 5 s, so a stall right after a
  // burst shows that much later).
  std::chrono::seconds stall_timeout{60};
  RetryPolicy retry{};

  // Logs requests at debug and the canonical request at trace; never a secret or a signature.
  // nullptr: spdlog's default logger.
  std::shared_ptr<spdlog::logger> logger{};
};

// Called from the transfer with the body bytes sent so far in this call (decoded bytes, not framing); it
// may go back to 0 when a retry starts over. Keep it cheap: it runs on curl's progress callback.
using ProgressFunction = std::function<void(std::uint64_t bytes_sent)>;

struct PutObjectOptions {
  // Per-call overrides of the ClientConfig values.
  std::optional<ChecksumAlgorithm> checksum_algorithm{};
  std::optional<ChecksumLocation> checksum_location{};
  // Sign the payload: hex SHA-256 in header mode, STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER] when streamed.
  bool signed_payload = false;
  // Also send Content-MD5 (needs a pre-read, so a rewindable source).
  bool content_md5 = false;
  std::string content_type{};
  ProgressFunction progress{};
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
  int attempts = 1;                 // requests sent, retries included
};

// ----------------------------------------------------------------------------------------------------------
// Multipart uploads (reference §6). upload() in s3up/transfer.h drives these; they are public for callers
// that manage parts themselves.

enum class ChecksumType {
  composite,    // the checksum of the parts' checksums, "<base64>-<part count>" (CRC32, CRC32C, SHA1, SHA256)
  full_object,  // the CRC of the whole object, combined from the parts' CRCs (CRC32, CRC32C, CRC64NVME)
};
std::string_view to_string(ChecksumType type);                           // "COMPOSITE" / "FULL_OBJECT"
std::optional<ChecksumType> parse_checksum_type(std::string_view text);  // any case
// Whether S3 accepts this algorithm with this type (reference §6.1).
bool checksum_type_supported(ChecksumAlgorithm algorithm, ChecksumType type);

struct CreateMultipartUploadOptions {
  // nullopt algorithm: per ClientConfig (CRC32 under when_supported). nullopt type: FULL_OBJECT for CRCs,
  // COMPOSITE for SHA1/SHA256. An unsupported pair is refused before any request (invalid_argument).
  std::optional<ChecksumAlgorithm> checksum_algorithm{};
  std::optional<ChecksumType> checksum_type{};
  std::string content_type{};
};

// An upload in progress: what every later request about it needs.
struct MultipartUpload {
  std::string bucket{};
  std::string key{};
  std::string upload_id{};
  std::optional<ChecksumAlgorithm> checksum_algorithm{};  // nullopt: parts carry no checksum
  ChecksumType checksum_type = ChecksumType::full_object;
};

struct UploadPartResult {
  int part_number = 0;
  std::string etag{};
  std::uint64_t bytes = 0;
  std::string checksum{};  // base64 of the part's checksum, as sent and echoed (empty without one)
  int attempts = 1;
  ChecksumLocation checksum_location = ChecksumLocation::none;  // where the checksum travelled
};

// A part as CompleteMultipartUpload lists it. size is ours (for the FULL_OBJECT combination), not sent.
struct CompletedPart {
  int part_number = 0;
  std::string etag{};
  std::string checksum{};  // base64; empty without a checksum
  std::uint64_t size = 0;
};

struct CompleteMultipartUploadResult {
  long http_status = 0;
  std::string etag{};      // "<hex>-<parts>"
  std::string checksum{};  // as S3 answered it: "<base64>-<parts>" for COMPOSITE, a plain CRC for FULL_OBJECT
  std::optional<ChecksumType> checksum_type{};
  std::string request_id{};
  std::string location{};
};

struct ListedPart {
  int part_number = 0;
  std::string etag{};
  std::uint64_t size = 0;
  std::string checksum{};
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

  // Multipart. upload_part streams body like put_object (same checksum locations, payload modes and retries,
  // with options.checksum_algorithm ignored in favour of the upload's); complete_multipart_upload sends
  // every part's ETag and checksum, and for FULL_OBJECT the object CRC combined from the parts'; it fails
  // when a 200 answer carries an <Error> body or when the server's checksum differs from ours.
  Result<MultipartUpload> create_multipart_upload(std::string_view bucket, std::string_view key,
                                                  const CreateMultipartUploadOptions& options = {});
  // The checksum algorithm create_multipart_upload would declare for `requested` (nullopt: the
  // configuration's) under this client's configuration and provider, or its refusal; sends nothing.
  Result<std::optional<ChecksumAlgorithm>> multipart_checksum_algorithm(
      std::optional<ChecksumAlgorithm> requested) const;
  Result<UploadPartResult> upload_part(const MultipartUpload& upload, int part_number, BodySource& body,
                                       const PutObjectOptions& options = {});
  Result<CompleteMultipartUploadResult> complete_multipart_upload(const MultipartUpload& upload,
                                                                  std::span<const CompletedPart> parts);
  Result<long> abort_multipart_upload(const MultipartUpload& upload);
  Result<std::vector<ListedPart>> list_parts(const MultipartUpload& upload);

  Result<long> create_bucket(std::string_view bucket);
  Result<long> delete_object(std::string_view bucket, std::string_view key);

  const ClientConfig& config() const;  // with the defaults and environment resolved

  // Makes the call in progress on this Client end soon with Error::Kind::cancelled (a transfer stops at
  // curl's next callback, a backoff wakes at once), and every later call too until reset_cancel(): sticky,
  // so a cancel() that races with the start of a call is never lost. Safe to call from any thread.
  void cancel();
  void reset_cancel();

 private:
  friend struct ClientTestHooks;  // client/test_hooks.h: tests only (a clock offset), not part of the API
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace s3up
