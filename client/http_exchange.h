// client/http_exchange.h: one HTTP exchange over the Client's curl handle: the signed headers as the complete
// header list, the body pulled from an encoder by curl's read callback, and the answer's status, headers and
// (bounded) body collected for the caller.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
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

// curl's upload buffer, which the encoders write into directly. 256 KiB: four 64 KiB aws-chunked chunks
// per read callback, few syscalls, still small. curl accepts 16 KiB to 2 MiB; benchmarks may retune it.
inline constexpr long upload_buffer_size = 256 * 1024;

struct TransferSettings {
  bool verify_tls = true;
  std::string ca_bundle;  // empty: curl's default; else the only certificates trusted
  std::chrono::milliseconds connect_timeout{0};
  std::chrono::milliseconds request_timeout{0};
  std::chrono::seconds stall_timeout{0};
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
// Errors: network / tls from curl; body when the encoder or the sink failed, when the encoder produced other
// than encoded_length() bytes, or when curl had to resend the body (a reused connection died) and it could
// not restart. Any HTTP status is a success here: a 2xx still needs upload_bytes and sent_bytes checked.
Result<HttpResponse> perform_exchange(CurlHandle& curl, const TransferSettings& settings,
                                      const SignedOutgoingRequest& request, BodyEncoder* upload,
                                      const ResponseSink* sink);

// curl's code, its name as code and the error buffer in the message; tls for certificate and handshake
// failures, network otherwise.
Error curl_error(CURLcode code, std::string_view error_buffer);

}  // namespace s3up
