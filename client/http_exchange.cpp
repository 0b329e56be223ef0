// http_exchange.cpp: one request/response over curl. The request headers are exactly the signed ones plus
// Authorization and the removal of curl's own Accept and Expect; the body goes from the encoder straight into
// curl's upload buffer; failures inside callbacks are caught there (nothing may unwind through C) and
// reported after curl returns.
#include "client/http_exchange.h"

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <string>

#include "client/error.h"

namespace s3up {
namespace {

struct ExchangeState {
  CURL* handle = nullptr;
  BodyEncoder* upload = nullptr;
  std::uint64_t upload_length = 0;  // upload->encoded_length(): the Content-Length
  const ResponseSink* sink = nullptr;
  const std::atomic<bool>* cancelled = nullptr;
  HttpResponse response;
  std::uint64_t header_bytes = 0;  // of the current response's header block
  bool at_block_start = true;      // the next header line begins a header block: it is a status line
  std::uint64_t sink_bytes = 0;    // handed to the sink (counted before the call: it may take some)
  std::optional<Error> failure;    // first failure raised inside a callback
};

// The encoder writes straight into curl's upload buffer. It must produce exactly the Content-Length: a 0
// before it would make curl stop sending and leave the server waiting for the rest; more would put bytes on
// the wire that belong to no request. Both are encoder bugs the encoders check for themselves; this is the
// last line.
std::size_t read_body(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<ExchangeState*>(user);
  const std::uint64_t left = state->upload_length - state->response.upload_bytes;
  try {
    std::size_t written = state->upload->fill(std::span(reinterpret_cast<std::byte*>(buffer), size * count));
    if ((written == 0 && left != 0) || written > left) {
      throw BodyError(written == 0 ? BodyError::Kind::ended_early : BodyError::Kind::longer_than_declared,
                      "the body encoder produced " + std::to_string(state->response.upload_bytes + written) +
                          " bytes of the " + std::to_string(state->upload_length) + " declared");
    }
    state->response.upload_bytes += written;
    return written;
  } catch (const BodyError& error) {
    state->failure = body_error(error);
  } catch (const std::exception& error) {
    state->failure = body_error(BodyError(BodyError::Kind::read_failed, error.what()));
  } catch (...) {
    state->failure = body_error(BodyError(BodyError::Kind::read_failed, "unknown exception from the body"));
  }
  // Aborting makes curl drop the connection mid-body, so the server never sees a complete request and stores
  // nothing.
  return CURL_READFUNC_ABORT;
}

// curl rewinds the body when it must resend it: a reused keep-alive connection that the server closed without
// answering is retried on a new one. restart() rewinds the source and resets every checksum and the signature
// chain (aws-sdk-cpp#3903). A source that cannot rewind fails the upload with a body error saying why, rather
// than curl's bare CURLE_SEND_FAIL_REWIND.
int seek_body(void* user, curl_off_t offset, int origin) {
  auto* state = static_cast<ExchangeState*>(user);
  try {
    if (offset != 0 || origin != SEEK_SET) {
      throw BodyError(BodyError::Kind::not_rewindable, "curl asked to seek into the body, not to its start");
    }
    state->upload->restart();
    state->response.upload_bytes = 0;
    return CURL_SEEKFUNC_OK;
  } catch (const BodyError& error) {
    state->failure = body_error(BodyError(
        error.kind(), std::string(error.what()) +
                          " (curl had to send the body again, as when a reused connection closed before the "
                          "server answered, and that needs it from the start)"));
  } catch (const std::exception& error) {
    state->failure = body_error(BodyError(BodyError::Kind::read_failed, error.what()));
  } catch (...) {
    state->failure = body_error(BodyError(BodyError::Kind::read_failed, "unknown exception from the body"));
  }
  return CURL_SEEKFUNC_FAIL;
}

std::size_t read_header(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<ExchangeState*>(user);
  std::size_t length = size * count;
  try {
    std::string_view line(buffer, length);
    // curl hands over whole header lines, line end included.
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
    // Only the first line of a block is a status line. A field line that merely begins with "HTTP/", taken
    // for one, would reset the status mid-block (a 2xx body then goes to the error buffer, not the sink)
    // and drop the fields before it (a checksum to verify).
    const bool status_line = state->at_block_start && line.starts_with("HTTP/");
    state->at_block_start = line.empty();
    if (status_line) {
      // A new status line (after a 1xx, or a retried request): forget what the previous one said.
      state->response.headers.clear();
      state->response.reason.clear();
      state->response.status = 0;
      state->header_bytes = 0;
    }
    state->header_bytes += length;
    if (state->header_bytes > max_response_header_bytes) {
      state->failure = make_error(
          Error::Kind::protocol, "ResponseHeadersTooLarge",
          "the server's response headers exceed " + std::to_string(max_response_header_bytes) + " bytes");
      return 0;  // curl stops the transfer
    }
    if (status_line) {
      std::size_t space = line.find(' ');
      if (space != std::string_view::npos) {
        std::string_view rest = line.substr(space + 1);
        long status = 0;
        std::size_t at = 0;
        // A status code has three digits (RFC 9110 §15); reading on could overflow `status`.
        while (at < rest.size() && at < 3 && rest[at] >= '0' && rest[at] <= '9')
          status = status * 10 + (rest[at++] - '0');
        state->response.status = status;
        state->response.reason = std::string(trim_http_whitespace(rest.substr(at)));
      }
      return length;
    }
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return length;  // the blank line ending the headers
    state->response.headers.emplace_back(ascii_lowercase(trim_http_whitespace(line.substr(0, colon))),
                                         std::string(trim_http_whitespace(line.substr(colon + 1))));
    return length;
  } catch (...) {
    return 0;  // out of memory: curl fails the transfer with CURLE_WRITE_ERROR
  }
}

std::size_t write_body(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* state = static_cast<ExchangeState*>(user);
  std::size_t length = size * count;
  state->response.body_bytes += length;
  auto& response = state->response;
  // Where the body goes follows curl's status, not our reading of the status line: curl decides what a
  // status line is and reads odd ones its own way (an unreadable "HTTP/..." line is HTTP/1.0 200 to it). Had
  // they disagreed, a 2xx body would go to the error buffer while the call reports success.
  long curl_status = 0;
  if (curl_easy_getinfo(state->handle, CURLINFO_RESPONSE_CODE, &curl_status) == CURLE_OK && curl_status != 0)
    response.status = curl_status;
  if (state->sink != nullptr && response.successful()) {
    try {
      state->sink_bytes += length;
      (*state->sink)(response, std::span(reinterpret_cast<const std::byte*>(buffer), length));
      return length;
    } catch (const std::exception& error) {
      state->failure =
          make_error(Error::Kind::body, "SinkFailed", std::string("the sink failed: ") + error.what());
    } catch (...) {
      state->failure = make_error(Error::Kind::body, "SinkFailed", "the sink threw an unknown exception");
    }
    return 0;  // aborts the transfer
  }
  if (response.body_bytes > max_unstreamed_body_bytes) {
    state->failure = make_error(Error::Kind::protocol, "ResponseTooLarge",
                                "the server's HTTP " + std::to_string(response.status) +
                                    " answer has a body over " + std::to_string(max_unstreamed_body_bytes) +
                                    " bytes, which no S3 answer to this request has");
    return 0;  // aborts the transfer
  }
  std::size_t room = max_error_body_bytes - std::min(max_error_body_bytes, response.body.size());
  try {
    response.body.append(buffer, std::min(room, length));
  } catch (...) {
    return 0;
  }
  return length;  // the rest is counted but dropped: only the start of an error body is ever parsed
}

// curl's progress callback, called during the transfer at least once a second and on every read and write:
// the one place the transfer can be stopped from outside. A non-zero return aborts it with
// CURLE_ABORTED_BY_CALLBACK, reported as Error{cancelled}.
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* state = static_cast<ExchangeState*>(user);
  return state->cancelled->load(std::memory_order_acquire) ? 1 : 0;
}

using Milliseconds = std::chrono::milliseconds;

// What is left before the deadline, rounded up so that curl never stops before it.
Milliseconds time_left(std::chrono::steady_clock::time_point deadline) {
  return std::chrono::ceil<Milliseconds>(deadline - std::chrono::steady_clock::now());
}

// CURLE_OPERATION_TIMEDOUT stands for three limits; which one ran out is told by what was reached: the call's
// deadline, else a connection (curl sets the pre-transfer time, on new and reused connections alike, once
// the request is about to go out), else the stall limit during the transfer.
Error timeout_failure(CURL* handle, const TransferSettings& settings, std::string_view detail) {
  if (settings.deadline && time_left(*settings.deadline) <= Milliseconds(0)) {
    return timeout_error("request_timeout", "request_timeout (" +
                                                std::to_string(settings.request_timeout.count()) +
                                                " ms for the whole call) ran out: " + std::string(detail));
  }
  curl_off_t pretransfer = 0;
  curl_easy_getinfo(handle, CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
  if (pretransfer == 0) {
    return timeout_error("connect_timeout", "no connection within connect_timeout (" +
                                                std::to_string(settings.connect_timeout.count()) +
                                                " ms): " + std::string(detail));
  }
  return timeout_error("stall_timeout", "no byte moved either way for stall_timeout (" +
                                            std::to_string(settings.stall_timeout.count()) +
                                            " s): " + std::string(detail));
}

}  // namespace

std::string_view HttpResponse::header(std::string_view lowercase_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lowercase_name) return value;
  }
  return {};
}

Result<HttpResponse> perform_exchange(CurlHandle& curl, const TransferSettings& settings,
                                      const SignedOutgoingRequest& request, BodyEncoder* upload,
                                      const ResponseSink* sink, ExchangeTrace* trace) {
  ExchangeTrace ignored;
  if (trace == nullptr) trace = &ignored;
  *trace = {};
  if (settings.cancelled != nullptr && settings.cancelled->load(std::memory_order_acquire)) {
    return cancelled_error();
  }
  // The deadline may have passed before this exchange starts (a slow sign or pre-read): nothing is sent.
  Milliseconds left{0};
  if (settings.deadline) {
    left = time_left(*settings.deadline);
    if (left <= Milliseconds(0)) {
      return timeout_error("request_timeout",
                           "request_timeout (" + std::to_string(settings.request_timeout.count()) +
                               " ms for the whole call) ran out before the request was sent");
    }
  }

  // Every option is set again on a reset handle, so nothing leaks from the previous request; the reset keeps
  // the connection cache, so keep-alive connections are reused.
  curl.reset();
  CURL* handle = curl.get();
  ExchangeState state;
  state.handle = handle;
  state.upload = upload;
  state.upload_length = upload != nullptr ? upload->encoded_length() : 0;
  state.sink = sink;
  state.cancelled = settings.cancelled;
  state.response.body.reserve(1024);
  char error_buffer[CURL_ERROR_SIZE] = {};

  CurlHeaderList& header_list = curl.header_list();
  header_list.clear();
  for (const auto& header : request.headers) header_list.add(header.name, header.value);
  header_list.add("Authorization", request.authorization);
  // Expect: 100-continue is turned off: it costs a round trip per PUT (or curl's 1 s wait when a server
  // ignores it), and when a server answers an error early curl stops sending anyway. Accept is curl's own
  // default, unsigned and useless to S3. No Transfer-Encoding: the length is always known.
  header_list.remove("Expect");
  header_list.remove("Accept");

  CURLcode status = CURLE_OK;
  auto set = [&status](CURLcode result) {
    if (status == CURLE_OK) status = result;
  };
  set(curl_easy_setopt(handle, CURLOPT_URL, request.target.url.c_str()));
  set(curl_easy_setopt(handle, CURLOPT_PATH_AS_IS, 1L));  // S3 keys may hold "../" or "./": never normalise
  set(curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L));
  // HTTP/1.1 only: aws-chunked framing and Content-Length are defined on it, and ALPN must not pick h2.
  set(curl_easy_setopt(handle, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1)));
  set(curl_easy_setopt(handle, CURLOPT_HTTPHEADER, header_list.get()));
  set(curl_easy_setopt(handle, CURLOPT_USERAGENT, "s3up/0.1"));
  set(curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer));
  set(curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, read_header));
  set(curl_easy_setopt(handle, CURLOPT_HEADERDATA, &state));
  set(curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body));
  set(curl_easy_setopt(handle, CURLOPT_WRITEDATA, &state));
  if (upload != nullptr) {
    set(curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L));
    set(curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(state.upload_length)));
    set(curl_easy_setopt(handle, CURLOPT_READFUNCTION, read_body));
    set(curl_easy_setopt(handle, CURLOPT_READDATA, &state));
    set(curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, seek_body));
    set(curl_easy_setopt(handle, CURLOPT_SEEKDATA, &state));
    set(curl_easy_setopt(handle, CURLOPT_UPLOAD_BUFFERSIZE, static_cast<long>(settings.upload_buffer_size)));
    if (request.method != "PUT") set(curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str()));
  } else if (request.method == "GET") {
    set(curl_easy_setopt(handle, CURLOPT_HTTPGET, 1L));
  } else {
    set(curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str()));
  }
  set(curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, settings.verify_tls ? 1L : 0L));
  set(curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, settings.verify_tls ? 2L : 0L));
  if (!settings.ca_bundle.empty()) {
    // The bundle is the whole trust store, as with the AWS CLI's --ca-bundle: libcurl builds such as Debian's
    // also carry a default CA directory, which must not widen it. (libcurl reads no CA environment variable
    // itself: CURL_CA_BUNDLE is the curl tool's, SSL_CERT_FILE/SSL_CERT_DIR OpenSSL's default paths, which
    // libcurl does not load.)
    set(curl_easy_setopt(handle, CURLOPT_CAINFO, settings.ca_bundle.c_str()));
    set(curl_easy_setopt(handle, CURLOPT_CAPATH, nullptr));
  }
  if (settings.connect_timeout.count() > 0) {
    set(curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                         static_cast<long>(settings.connect_timeout.count())));
  }
  if (settings.deadline) {
    // This attempt may use what is left of the whole call's deadline, and no more.
    set(curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(left.count())));
  }
  if (settings.cancelled != nullptr) {
    set(curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, on_progress));
    set(curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &state));
    set(curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L));
  }
  if (settings.stall_timeout.count() > 0) {
    // Below 1 byte/s for stall_timeout seconds: nothing is moving at all.
    set(curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L));
    set(curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, static_cast<long>(settings.stall_timeout.count())));
  }
  if (status != CURLE_OK) return curl_error(status, error_buffer);

  CURLcode result = curl_easy_perform(handle);
  // The error buffer lives on this frame, and the header list is the next request's to rebuild: curl must not
  // keep pointers to them afterwards.
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, nullptr);

  trace->upload_bytes = state.response.upload_bytes;
  trace->sink_bytes = state.sink_bytes;
  trace->date = std::string(state.response.header("date"));

  // A body, sink or oversized-answer failure explains the abort better than curl's code does.
  if (state.failure) return std::move(*state.failure);
  if (result != CURLE_OK) {
    if (settings.cancelled != nullptr && settings.cancelled->load(std::memory_order_acquire)) {
      return cancelled_error();
    }
    if (result == CURLE_OPERATION_TIMEDOUT) {
      return timeout_failure(handle, settings,
                             error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(result));
    }
    return curl_error(result, error_buffer);
  }
  long response_code = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &response_code);
  if (response_code != 0) state.response.status = response_code;
  // curl can finish without error on an answer whose status line it could not read (status 0): that is no
  // service's answer, and a service error without a status would name nothing (found by
  // fuzz/http_response_fuzz.cpp).
  if (state.response.status < 100 || state.response.status > 599) {
    return make_error(Error::Kind::protocol, "InvalidStatusLine",
                      "the server's answer has no valid HTTP status line (status " +
                          std::to_string(state.response.status) + ")");
  }
  curl_off_t sent = 0;
  curl_easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, &sent);
  state.response.sent_bytes = static_cast<std::uint64_t>(sent);
  return std::move(state.response);
}

}  // namespace s3up
