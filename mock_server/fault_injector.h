// fault_injector.h: the queue of faults Server::inject_fault fills, which request each fault hits, and how a
// picked fault is applied to the one request it hits.
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>

#include "s3up/mock_server.h"

namespace s3up::mock {

class BufferedReader;
class S3Handler;
struct HttpRequest;

// Thread-safe: tests inject faults while connection threads pick them.
class FaultQueue {
 public:
  // Throws std::invalid_argument for a fault that cannot be injected (count < 1, a status out of range...).
  void push(Fault fault);
  void clear();
  std::size_t pending() const;  // the sum of the queued faults' remaining counts
  // Called once per request, when its head has been parsed: the first queued fault whose method matches,
  // with its count taken down by one (and dropped from the queue at zero).
  std::optional<Fault> pick(std::string_view method);

 private:
  mutable std::mutex mutex_;
  std::deque<Fault> faults_;
};

std::string_view fault_kind_name(Fault::Kind kind);  // "error_response", "reset_after_bytes"...

// Serves one request that `fault` hits. False: the connection must not carry another request.
bool serve_with_fault(S3Handler& handler, const Fault& fault, const HttpRequest& request,
                      BufferedReader& reader, std::span<std::byte> scratch);

}  // namespace s3up::mock
