// fault_response.cpp: injected faults that replace the S3 operation: an S3 error, a verbatim (malformed)
// answer, a close without an answer, a reset mid-body. They look at nothing but the body's framing, check
// no signature and store nothing.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>
#include <string>

#include "connection.h"
#include "fault_injector.h"
#include "http_body.h"
#include "http_response.h"
#include "s3_error.h"
#include "s3_handler.h"
#include "s3up/sigv4.h"

namespace s3up::mock {

namespace {

constexpr std::uint64_t max_linger_bytes = 64ULL << 20;
constexpr int linger_timeout_ms = 2000;
constexpr int max_clock_skew_ms = 15 * 60 * 1000;

// Reads and drops the rest of the body; true once every byte of it was read.
bool drain(RequestBody& body, std::span<std::byte> scratch) {
  while (!body.complete()) {
    if (body.read(scratch).size == 0 && !body.complete()) return false;
  }
  return true;
}

// The error an error_response fault answers with: S3's own wording for the codes clients retry on.
S3Error injected_error(const Fault& fault, const HttpRequest& request) {
  const std::string& code = fault.code;
  std::string message = "Injected by the s3up mock server's fault injection.";
  if (code == "SlowDown" || code == "ServiceUnavailable") message = "Please reduce your request rate.";
  if (code == "InternalError") message = "We encountered an internal error. Please try again.";
  if (code == "RequestTimeout") message = request_timeout_error().message;
  S3Error error = s3_error(fault.status, code, message);
  if (code == "RequestTimeTooSkewed") {
    // As S3 sends it, so that a client can take the server's time from it (or from the Date header).
    error.message = "The difference between the request time and the current time is too large.";
    error.details.emplace_back("RequestTime", request.value("x-amz-date").value_or(""));
    error.details.emplace_back("ServerTime", sigv4::amz_date(std::time(nullptr)));
    error.details.emplace_back("MaxAllowedSkewMilliseconds", std::to_string(max_clock_skew_ms));
  }
  return error;
}

}  // namespace

bool S3Handler::serve_fault(const HttpRequest& request, BufferedReader& reader, std::span<std::byte> scratch,
                            const Fault& fault) {
  ++counters_.requests;
  Connection& connection = reader.connection();
  RequestBody::Framing framing;
  std::uint64_t length;
  // A body whose framing cannot be known cannot be read: such a request is answered (or not) at once.
  bool framed = !body_framing(request, framing, length);
  RequestBody body(reader, framed ? framing : RequestBody::Framing::none, length, request.expects_continue());

  if (fault.kind == Fault::Kind::reset_after_bytes) {
    // Counted on the wire after the head: HTTP chunked framing included, exact with Content-Length (a
    // chunk-size line that crosses the mark is read whole). A shorter body is read in full, then reset.
    const std::uint64_t start = reader.consumed();
    while (!body.complete()) {
      std::uint64_t raw = reader.consumed() - start;
      if (raw >= fault.after_bytes) break;
      auto want = static_cast<std::size_t>(std::min<std::uint64_t>(scratch.size(), fault.after_bytes - raw));
      if (body.read(scratch.first(want)).size == 0) break;
    }
    counters_.body_bytes += body.received();
    logger_.debug("mock S3: {} {} -> connection reset after {} body bytes (injected)", request.method,
                  request.raw_path, reader.consumed() - start);
    connection.reset();
    return false;
  }

  bool complete = drain(body, scratch);
  counters_.body_bytes += body.received();
  if (fault.kind == Fault::Kind::close_before_response) {
    logger_.debug("mock S3: {} {} -> connection closed without an answer (injected)", request.method,
                  request.raw_path);
    connection.close();
    return false;
  }

  auto [request_id, host_id] = ids_.next();
  bool is_head = request.method == "HEAD";
  ResponseHead head;
  head.status = fault.status;
  head.headers = {
      {"x-amz-request-id", request_id}, {"x-amz-id-2", host_id}, {"Content-Type", "application/xml"}};
  std::string out_body;
  if (fault.kind == Fault::Kind::error_response) {
    S3Error error = injected_error(fault, request);
    // As in send(): an error to HEAD has neither body nor Content-Length.
    if (!is_head) {
      out_body = error_document(error, request_id, host_id);
      head.content_length = out_body.size();
    }
    counters_.record_error(error.code);
  } else {
    head.content_length = fault.body.size();
    if (!is_head) out_body = fault.body;
  }
  if (fault.status >= 300) ++counters_.rejected;
  // Like any answer: the connection stays open when the whole body was read and the client wants it.
  bool keep_alive = framed && complete && request.keep_alive();
  head.close = !keep_alive;
  bool written = connection.write_all(serialize(head) + out_body);
  logger_.debug("mock S3: {} {} -> {} (injected {})", request.method, request.raw_path, fault.status,
                fault_kind_name(fault.kind));
  if (!framed) connection.linger_close(max_linger_bytes, linger_timeout_ms);
  return keep_alive && written;
}

}  // namespace s3up::mock
