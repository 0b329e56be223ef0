// client/http_exchange.h: one HTTP exchange over the Client's curl handle: the signed headers as the complete
// header list, the body pulled from an encoder by curl's read callback, and the answer's status, headers and
// (bounded) body collected for the caller.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/curl_handle.h"
#include "client/request_signer.h"
#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

// Error bodies are small XML documents; anything past this is counted but not kept, so a misbehaving server
// cannot make the client buffer without bound.
inline constexpr std::size_t max_error_body_bytes = 64 * 1024;
// A body we do not stream to a sink (error documents, the empty body of a PUT's answer) that runs past this
// is no S3 answer: the transfer stops there with Error{protocol, ResponseTooLarge} rather than read on.
inline constexpr std::uint64_t max_unstreamed_body_bytes = 1024 * 1024;
// The response header block, all lines together. S3 sends a few KiB; curl's own limit (300 KiB in 7.88)
// would fail as an anonymous receive error, this one as Error{protocol, ResponseHeadersTooLarge}.
inline constexpr std::uint64_t max_response_header_bytes = 256 * 1024;

struct TransferSettings {
  bool verify_tls = true;
  std::string ca_bundle;  // empty: curl's default; else the only certificates trusted
  std::chrono::milliseconds connect_timeout{0};
  std::chrono::seconds stall_timeout{0};
  std::size_t upload_buffer_size = default_upload_buffer_size;  // ClientConfig::upload_buffer_size
  // The deadline of the whole call (ClientConfig::request_timeout from its start): an exchange may take what
  // is left of it. request_timeout itself only names the limit in messages.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::chrono::milliseconds request_timeout{0};
  // Client::cancel()'s flag, polled by curl's progress callback; null: not cancellable.
  const std::atomic<bool>* cancelled = nullptr;
};

// What an exchange did, whether or not it succeeded: what the retry loop needs to decide.
struct ExchangeTrace {
  std::uint64_t upload_bytes = 0;  // encoded body bytes produced: 0 means the source was never read
  std::uint64_t sink_bytes = 0;    // answer bytes handed to the sink: a retry would hand them over again
  std::string date;                // the answer's Date header; "" when none arrived
};

struct HttpResponse {
  long status = 0;
  std::string reason;                                        // from the status line, e.g. "Not Found"
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercase, values trimmed
  std::string body;                // the first max_error_body_bytes when not streamed to a sink
  std::uint64_t body_bytes = 0;    // response body bytes received
  std::uint64_t upload_bytes = 0;  // encoded request body bytes handed to curl (by the last attempt)
  std::uint64_t sent_bytes = 0;    // of those, written to the connection (CURLINFO_SIZE_UPLOAD_T)

  bool successful() const { return status >= 200 && status < 300; }
  std::string_view header(std::string_view lowercase_name) const;  // "" when absent
};

// Receives each piece of a 2xx body, with the answer so far (status and headers are complete by then).
using ResponseSink = std::function<void(const HttpResponse& response, std::span<const std::byte> data)>;

// Performs request. upload (PUT bodies) may be null; sink, when given, receives the body of a 2xx answer.
// Errors: network / tls from curl; timeout (code connect_timeout, stall_timeout or request_timeout) when a
// limit of settings ran out; cancelled when settings.cancelled was set; protocol for an answer we cannot
// read or that is too large; body when the encoder or the sink failed, when the encoder produced other than
// encoded_length() bytes, or when curl had to resend the body (a reused connection died) and it could not
// restart. Any HTTP status is a success here: a 2xx still needs upload_bytes and sent_bytes checked. trace,
// when given, is filled in either way.
Result<HttpResponse> perform_exchange(CurlHandle& curl, const TransferSettings& settings,
                                      const SignedOutgoingRequest& request, BodyEncoder* upload,
                                      const ResponseSink* sink, ExchangeTrace* trace = nullptr);

// curl's code, its name as code and the error buffer in the message; tls for certificate and handshake
// failures, protocol for an answer curl could not parse, network otherwise. (CURLE_OPERATION_TIMEDOUT and
// CURLE_ABORTED_BY_CALLBACK are told apart by perform_exchange, which knows the limits and the cancel flag.)
Error curl_error(CURLcode code, std::string_view error_buffer);

}  // namespace s3up
