// s3_handler.h: one S3 request from head to response — authentication, routing (path-style and
// virtual-hosted), CreateBucket, PutObject, GetObject, HeadObject, DeleteObject, the multipart operations
// (multipart_handler.h) — and the counters tests read.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <utility>

#include "http_request.h"
#include "multipart_handler.h"
#include "s3up/mock_server.h"

namespace spdlog {
class logger;
}

namespace s3up::mock {

class BufferedReader;
class ObjectStore;

struct ServerCounters {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> rejected{0};
  std::atomic<std::uint64_t> body_bytes{0};
  mutable std::mutex mutex;
  std::string last_error_code;  // guarded by mutex

  void record_error(const std::string& code);
};

// x-amz-request-id and x-amz-id-2 values, unique for the life of the server.
class RequestIds {
 public:
  RequestIds();
  std::pair<std::string, std::string> next();

 private:
  std::uint64_t seed_;
  std::uint64_t host_seed_;
  std::atomic<std::uint64_t> counter_{0};
};

class S3Handler {
 public:
  S3Handler(const ServerOptions& options, ObjectStore& store, ServerCounters& counters,
            spdlog::logger& logger);

  // Serves one request whose head was read; false when the connection must not carry another request.
  bool serve(const HttpRequest& request, BufferedReader& reader, std::span<std::byte> scratch);
  // Answers a head that could not be parsed (too large, malformed); the connection then closes.
  void reject_head(HeadStatus status, BufferedReader& reader);
  // Serves a request an injected fault answers instead of S3 (error_response, malformed_response,
  // close_before_response, reset_after_bytes); in fault_response.cpp. False: the connection is done.
  bool serve_fault(const HttpRequest& request, BufferedReader& reader, std::span<std::byte> scratch,
                   const Fault& fault);
  // Multipart uploads created and neither completed nor aborted.
  std::size_t multipart_upload_count() const { return multipart_.upload_count(); }

 private:
  struct Exchange;
  struct Reply;

  Reply dispatch(Exchange& exchange);
  Reply create_bucket(Exchange& exchange, const std::string& bucket);
  Reply head_bucket(Exchange& exchange, const std::string& bucket);
  Reply delete_bucket(Exchange& exchange, const std::string& bucket);
  Reply put_object(Exchange& exchange, const std::string& bucket, const std::string& key);
  Reply get_object(Exchange& exchange, const std::string& bucket, const std::string& key);
  Reply delete_object(Exchange& exchange, const std::string& bucket, const std::string& key);
  Reply multipart(Exchange& exchange, MultipartOperation operation, const std::string& bucket,
                  const std::string& key, bool virtual_hosted);
  bool send(Exchange& exchange, Reply& reply);

  const ServerOptions& options_;
  ObjectStore& store_;
  ServerCounters& counters_;
  spdlog::logger& logger_;
  RequestIds ids_;
  MultipartHandler multipart_;
};

}  // namespace s3up::mock
