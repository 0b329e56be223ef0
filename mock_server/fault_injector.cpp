// fault_injector.cpp: queued faults, picked one request at a time, and the faults that only shape how a
// normally served request travels (slow reading, a delayed answer, no 100 Continue).
#include "fault_injector.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "connection.h"
#include "http_request.h"
#include "s3_handler.h"

namespace s3up::mock {

namespace {

void validate(const Fault& fault) {
  auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("mock S3 server: cannot inject " + std::string(fault_kind_name(fault.kind)) +
                                ": " + why);
  };
  if (fault.count < 1) refuse("count must be at least 1");
  switch (fault.kind) {
    case Fault::Kind::error_response:
      // 3xx too: S3 answers PermanentRedirect (301) and TemporaryRedirect (307) with an error document.
      if (fault.status < 300 || fault.status > 599) refuse("status must be 300-599");
      if (fault.code.empty()) refuse("an S3 error code is needed");
      break;
    case Fault::Kind::malformed_response:
      // 1xx would not end the exchange; 204 and 304 cannot carry the body.
      if (fault.status < 200 || fault.status > 599 || fault.status == 204 || fault.status == 304)
        refuse("status must be 200-599, not 204 or 304");
      break;
    case Fault::Kind::slow_read:
      if (fault.bytes_per_second == 0) refuse("bytes_per_second must be at least 1");
      break;
    case Fault::Kind::delay_response:
      if (fault.delay.count() < 0) refuse("the delay cannot be negative");
      break;
    case Fault::Kind::reset_after_bytes:
    case Fault::Kind::close_before_response:
    case Fault::Kind::ignore_expect:
      break;
  }
}

}  // namespace

void FaultQueue::push(Fault fault) {
  validate(fault);
  std::lock_guard lock(mutex_);
  faults_.push_back(std::move(fault));
}

void FaultQueue::clear() {
  std::lock_guard lock(mutex_);
  faults_.clear();
}

std::size_t FaultQueue::pending() const {
  std::lock_guard lock(mutex_);
  std::size_t requests = 0;
  for (const auto& fault : faults_) requests += static_cast<std::size_t>(fault.count);
  return requests;
}

std::optional<Fault> FaultQueue::pick(std::string_view method) {
  std::lock_guard lock(mutex_);
  for (auto it = faults_.begin(); it != faults_.end(); ++it) {
    if (!it->method.empty() && !ascii_iequals(it->method, method)) continue;
    if (--it->count > 0) return *it;
    Fault last = std::move(*it);
    faults_.erase(it);
    return last;
  }
  return std::nullopt;
}

std::string_view fault_kind_name(Fault::Kind kind) {
  switch (kind) {
    case Fault::Kind::error_response:
      return "error_response";
    case Fault::Kind::reset_after_bytes:
      return "reset_after_bytes";
    case Fault::Kind::close_before_response:
      return "close_before_response";
    case Fault::Kind::slow_read:
      return "slow_read";
    case Fault::Kind::delay_response:
      return "delay_response";
    case Fault::Kind::malformed_response:
      return "malformed_response";
    case Fault::Kind::ignore_expect:
      return "ignore_expect";
  }
  return "unknown";
}

bool serve_with_fault(S3Handler& handler, const Fault& fault, const HttpRequest& request,
                      BufferedReader& reader, std::span<std::byte> scratch) {
  Connection& connection = reader.connection();
  bool keep_alive = false;
  switch (fault.kind) {
    case Fault::Kind::slow_read:
      reader.throttle(fault.bytes_per_second);
      keep_alive = handler.serve(request, reader, scratch);
      reader.throttle(0);
      return keep_alive;
    case Fault::Kind::delay_response:
      // The request is handled in full first (an upload is stored), then the answer waits.
      connection.set_response_delay(fault.delay);
      keep_alive = handler.serve(request, reader, scratch);
      connection.set_response_delay(std::chrono::milliseconds(0));
      return keep_alive;
    case Fault::Kind::ignore_expect:
      connection.set_ignore_expect(true);
      keep_alive = handler.serve(request, reader, scratch);
      connection.set_ignore_expect(false);
      return keep_alive;
    case Fault::Kind::error_response:
    case Fault::Kind::reset_after_bytes:
    case Fault::Kind::close_before_response:
    case Fault::Kind::malformed_response:
      break;
  }
  return handler.serve_fault(request, reader, scratch, fault);
}

}  // namespace s3up::mock
