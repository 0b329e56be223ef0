// s3_handler.cpp: request routing and the S3 operations the mock server implements.
#include "s3_handler.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <vector>

#include "connection.h"
#include "emulation.h"
#include "http_body.h"
#include "http_response.h"
#include "object_store.h"
#include "put_object.h"
#include "put_request.h"
#include "request_auth.h"
#include "s3_error.h"
#include "s3up/checksum.h"
#include "s3up/sigv4.h"
#include "small_body.h"

namespace s3up::mock {

namespace {

constexpr std::uint64_t max_linger_bytes = 64ULL << 20;
constexpr int linger_timeout_ms = 2000;
constexpr std::size_t max_key_length = 1024;

bool valid_bucket_name(std::string_view name) {
  if (name.size() < 3 || name.size() > 63) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front()) || !alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '-' || c == '.'; });
}

std::optional<std::vector<sigv4::QueryParameter>> parse_query(std::string_view raw) {
  std::vector<sigv4::QueryParameter> query;
  while (!raw.empty()) {
    std::size_t amp = raw.find('&');
    std::string_view pair = raw.substr(0, amp);
    raw.remove_prefix(amp == std::string_view::npos ? raw.size() : amp + 1);
    if (pair.empty()) continue;
    std::size_t eq = pair.find('=');
    auto name = sigv4::uri_decode(pair.substr(0, eq));
    auto value = sigv4::uri_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
    if (!name || !value) return std::nullopt;
    query.push_back({std::move(*name), std::move(*value)});
  }
  return query;
}

// The bucket named by a virtual-hosted Host ("<bucket>.localhost:port", "<bucket>.127.0.0.1:port"), or "".
std::string virtual_host_bucket(const HttpRequest& request, const ServerOptions& options) {
  std::string host = ascii_lowercase(trim_http_whitespace(request.value("host").value_or("")));
  if (!host.empty() && host.front() != '[') host = host.substr(0, host.rfind(':'));
  for (std::string suffix : {std::string(".localhost"), "." + options.listen_host}) {
    if (suffix.size() > 1 && host.size() > suffix.size() && host.ends_with(suffix))
      return host.substr(0, host.size() - suffix.size());
  }
  return "";
}

S3Error method_not_allowed() {
  return s3_error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
}

S3Error not_implemented(std::string_view what) {
  return s3_error(501, "NotImplemented", std::string(what) + " is not implemented by the s3up mock server");
}

S3Error no_such_bucket(const std::string& bucket) {
  S3Error error = s3_error(404, "NoSuchBucket", "The specified bucket does not exist");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

}  // namespace

void ServerCounters::record_error(const std::string& code) {
  std::lock_guard lock(mutex);
  last_error_code = code;
}

RequestIds::RequestIds() {
  std::random_device random;
  seed_ = (static_cast<std::uint64_t>(random()) << 32) ^ random();
  host_seed_ = (static_cast<std::uint64_t>(random()) << 32) ^ random();
}

std::pair<std::string, std::string> RequestIds::next() {
  std::uint64_t n = counter_.fetch_add(1) + 1;
  // Multiplying by an odd constant and xoring a constant are bijections: distinct n, distinct ids.
  std::uint64_t id = (n * 0x9E3779B97F4A7C15ULL) ^ seed_;
  std::string request_id = fmt::format("{:016X}", id);
  std::array<std::uint64_t, 3> host_words{host_seed_, id, ~host_seed_};
  std::string host_id = base64_encode(std::as_bytes(std::span(host_words)));
  return {std::move(request_id), std::move(host_id)};
}

struct S3Handler::Exchange {
  const HttpRequest& request;
  BufferedReader& reader;
  std::span<std::byte> scratch;
  RequestBody body;
  std::optional<S3Error> framing_error;
  std::string request_id;
  std::string host_id;
  std::string path;  // decoded once
  std::vector<sigv4::QueryParameter> query;
  VerifiedAuth auth;
};

struct S3Handler::Reply {
  std::optional<S3Error> error;
  ResponseHead head;
  std::string body;
  std::optional<ObjectContent> object;  // GetObject payload

  Reply() = default;
  Reply(S3Error e)
      : error(std::move(e)) {}  // NOLINT: errors convert implicitly, as they are returned everywhere
  Reply(std::optional<S3Error> e) : error(std::move(e)) {}  // NOLINT
};

S3Handler::S3Handler(const ServerOptions& options, ObjectStore& store, ServerCounters& counters,
                     spdlog::logger& logger)
    : options_(options), store_(store), counters_(counters), logger_(logger), multipart_(options, store) {}

bool S3Handler::serve(const HttpRequest& request, BufferedReader& reader, std::span<std::byte> scratch) {
  ++counters_.requests;
  RequestBody::Framing framing;
  std::uint64_t length;
  auto framing_error = body_framing(request, framing, length);
  Exchange exchange{request,
                    reader,
                    scratch,
                    RequestBody(reader, framing, length, request.expects_continue()),
                    std::move(framing_error),
                    {},
                    {},
                    {},
                    {},
                    {}};
  std::tie(exchange.request_id, exchange.host_id) = ids_.next();
  Reply reply;
  try {
    reply = dispatch(exchange);
  } catch (const std::bad_alloc&) {
    reply = internal_error("out of memory");
  } catch (const std::exception& e) {
    logger_.error("mock S3 server: {} {} failed: {}", request.method, request.raw_path, e.what());
    reply = internal_error("see the server log");
  }
  return send(exchange, reply);
}

S3Handler::Reply S3Handler::dispatch(Exchange& exchange) {
  const HttpRequest& request = exchange.request;
  if (exchange.framing_error) return *exchange.framing_error;
  const std::string& method = request.method;
  if (method != "GET" && method != "HEAD" && method != "PUT" && method != "DELETE" && method != "POST") {
    return method_not_allowed();
  }

  auto path = sigv4::uri_decode(request.raw_path);
  auto query = parse_query(request.raw_query);
  if (!path || !query) return s3_error(400, "InvalidURI", "Couldn't parse the specified URI.");
  exchange.path = std::move(*path);
  exchange.query = std::move(*query);

  if (auto error =
          verify_request_signature(request, exchange.path, exchange.query, options_, exchange.auth)) {
    return *error;
  }
  // The emulated service refuses what it refuses before looking at the operation (ServerOptions::emulate).
  // reject_trailers predates the emulations: it is the Scaleway one.
  const Emulation emulation =
      options_.reject_trailers && options_.emulate == Emulation::aws ? Emulation::scaleway : options_.emulate;
  if (auto error = emulation_refusal(emulation, request)) return *error;

  std::string bucket = virtual_host_bucket(request, options_);
  const bool virtual_hosted = !bucket.empty();
  std::string key;
  std::string_view rest = std::string_view(exchange.path).substr(1);
  if (bucket.empty()) {
    std::size_t slash = rest.find('/');
    bucket = rest.substr(0, slash);
    key = slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash + 1));
  } else {
    key = rest;
  }

  // ?uploads and ?uploadId= select the multipart operations, which check their own parameters.
  auto multipart_op = multipart_operation(method, !key.empty(), exchange.query);
  if (!multipart_op) {
    for (const auto& parameter : exchange.query) {
      // SDKs add x-id=<Operation> for tracing; every other parameter selects a sub-resource we do not have.
      if (parameter.name != "x-id") return not_implemented("The '" + parameter.name + "' query parameter");
    }
    if (method == "POST") return not_implemented("POST");
  }

  if (bucket.empty())
    return method == "GET" ? Reply(not_implemented("ListBuckets")) : Reply(method_not_allowed());
  if (!valid_bucket_name(bucket)) {
    S3Error error = s3_error(400, "InvalidBucketName", "The specified bucket is not valid.");
    error.details.emplace_back("BucketName", bucket);
    return error;
  }
  if (key.size() > max_key_length) {
    return s3_error(400, "KeyTooLongError", "Your key is too long");
  }
  if (multipart_op) return multipart(exchange, *multipart_op, bucket, key, virtual_hosted);
  if (key.empty()) {
    if (method == "PUT") return create_bucket(exchange, bucket);
    if (method == "HEAD") return head_bucket(exchange, bucket);
    if (method == "DELETE") return delete_bucket(exchange, bucket);
    return not_implemented("ListObjects");
  }
  if (method == "PUT") return put_object(exchange, bucket, key);
  if (method == "DELETE") return delete_object(exchange, bucket, key);
  return get_object(exchange, bucket, key);
}

S3Handler::Reply S3Handler::create_bucket(Exchange& exchange, const std::string& bucket) {
  if (auto error = receive_small_body(exchange.request, exchange.body, exchange.scratch)) return *error;
  store_.create_bucket(bucket);  // us-east-1 answers 200 to the owner re-creating a bucket
  Reply reply;
  reply.head.headers.push_back({"Location", "/" + bucket});
  reply.head.content_length = 0;
  return reply;
}

S3Handler::Reply S3Handler::head_bucket(Exchange& exchange, const std::string& bucket) {
  if (auto error = receive_small_body(exchange.request, exchange.body, exchange.scratch)) return *error;
  if (!store_.has_bucket(bucket)) return no_such_bucket(bucket);
  Reply reply;
  reply.head.headers.push_back({"x-amz-bucket-region", options_.region});
  reply.head.content_length = 0;
  return reply;
}

S3Handler::Reply S3Handler::delete_bucket(Exchange& exchange, const std::string& bucket) {
  if (auto error = receive_small_body(exchange.request, exchange.body, exchange.scratch)) return *error;
  switch (store_.delete_bucket(bucket)) {
    case DeleteBucketResult::missing:
      return no_such_bucket(bucket);
    case DeleteBucketResult::not_empty: {
      S3Error error = s3_error(409, "BucketNotEmpty", "The bucket you tried to delete is not empty");
      error.details.emplace_back("BucketName", bucket);
      return error;
    }
    case DeleteBucketResult::deleted:
      break;
  }
  Reply reply;
  reply.head.status = 204;
  return reply;
}

S3Handler::Reply S3Handler::put_object(Exchange& exchange, const std::string& bucket,
                                       const std::string& key) {
  const HttpRequest& request = exchange.request;
  if (request.find("x-amz-copy-source")) return not_implemented("CopyObject");
  PutPlan plan;
  if (auto error = plan_put_object(request, options_, plan)) return *error;
  if (!options_.auto_create_buckets && !store_.has_bucket(bucket)) return no_such_bucket(bucket);

  RequestBody& body = exchange.body;
  std::optional<std::uint64_t> size;
  if (auto error = announced_size(plan, body, size)) return *error;

  auto writer = store_.begin_put(bucket, key, size);
  StoredObject object;
  if (auto error = receive_put_object(plan, exchange.auth, body, *writer, exchange.scratch, object))
    return *error;
  if (!store_.commit_put(std::move(writer), object)) return internal_error("the object could not be stored");

  Reply reply;
  reply.head.headers.push_back({"ETag", object.etag});
  if (object.checksum) {
    reply.head.headers.push_back({object.checksum->first, object.checksum->second});
    reply.head.headers.push_back({"x-amz-checksum-type", "FULL_OBJECT"});
  }
  reply.head.content_length = 0;
  return reply;
}

S3Handler::Reply S3Handler::get_object(Exchange& exchange, const std::string& bucket,
                                       const std::string& key) {
  if (auto error = receive_small_body(exchange.request, exchange.body, exchange.scratch)) return *error;
  if (!store_.has_bucket(bucket)) return no_such_bucket(bucket);
  auto content = store_.get(bucket, key);
  if (!content) {
    S3Error error = s3_error(404, "NoSuchKey", "The specified key does not exist.");
    error.details.emplace_back("Key", key);
    return error;
  }
  Reply reply;
  const StoredObject& meta = content->meta;
  reply.head.headers.push_back(
      {"Content-Type", meta.content_type.empty() ? "binary/octet-stream" : meta.content_type});
  reply.head.headers.push_back({"ETag", meta.etag});
  reply.head.headers.push_back({"Accept-Ranges", "bytes"});
  auto mode = exchange.request.value("x-amz-checksum-mode");
  if (meta.checksum && mode && ascii_iequals(trim_http_whitespace(*mode), "ENABLED")) {
    // A multipart object's COMPOSITE value keeps its "-<part count>" suffix, as S3 answers it.
    reply.head.headers.push_back({meta.checksum->first, meta.checksum->second});
    reply.head.headers.push_back(
        {"x-amz-checksum-type", meta.checksum_type.empty() ? "FULL_OBJECT" : meta.checksum_type});
  }
  reply.head.content_length = meta.size;
  reply.object = std::move(content);
  return reply;
}

S3Handler::Reply S3Handler::delete_object(Exchange& exchange, const std::string& bucket,
                                          const std::string& key) {
  if (auto error = receive_small_body(exchange.request, exchange.body, exchange.scratch)) return *error;
  if (!store_.has_bucket(bucket)) return no_such_bucket(bucket);
  store_.remove(bucket, key);  // S3 answers 204 whether or not the key existed
  Reply reply;
  reply.head.status = 204;
  return reply;
}

S3Handler::Reply S3Handler::multipart(Exchange& exchange, MultipartOperation operation,
                                      const std::string& bucket, const std::string& key,
                                      bool virtual_hosted) {
  MultipartRequest request{exchange.request, exchange.body, exchange.scratch, exchange.auth, exchange.query,
                           bucket,           key,           virtual_hosted};
  MultipartResponse response;
  if (auto error = multipart_.serve(operation, request, response)) return *error;
  Reply reply;
  reply.head = std::move(response.head);
  reply.body = std::move(response.body);
  return reply;
}

namespace {

bool send_file(Connection& connection, int fd, std::uint64_t size, std::span<std::byte> scratch) {
  while (size > 0) {
    ssize_t n =
        ::read(fd, scratch.data(), static_cast<std::size_t>(std::min<std::uint64_t>(scratch.size(), size)));
    if (n <= 0) return false;  // the file shrank under us: the client sees a short body, never a wrong one
    if (!connection.write_all(scratch.first(static_cast<std::size_t>(n)))) return false;
    size -= static_cast<std::uint64_t>(n);
  }
  return true;
}

}  // namespace

bool S3Handler::send(Exchange& exchange, Reply& reply) {
  const HttpRequest& request = exchange.request;
  Connection& connection = exchange.reader.connection();
  bool is_head = request.method == "HEAD";
  ResponseHead& head = reply.head;
  head.headers.insert(head.headers.begin(),
                      {{"x-amz-request-id", exchange.request_id}, {"x-amz-id-2", exchange.host_id}});
  std::string body = std::move(reply.body);
  if (reply.error) {
    head.status = reply.error->status;
    head.headers.push_back({"Content-Type", "application/xml"});
    head.content_length.reset();
    if (!is_head) {
      body = error_document(*reply.error, exchange.request_id, exchange.host_id);
      head.content_length = body.size();
    }
    ++counters_.rejected;
    counters_.record_error(reply.error->code);
  }
  // After an error the unread rest of a body cannot be skipped reliably: close instead of resynchronising.
  bool keep_alive = !exchange.framing_error && request.keep_alive() && exchange.body.complete();
  head.close = !keep_alive;

  // Counted before answering, so that a client that has its answer sees the count (tests do).
  counters_.body_bytes += exchange.body.received();
  std::string out = serialize(head);
  if (!is_head) out += body;
  bool written = connection.write_all(out);
  if (written && reply.object && !is_head) {
    const ObjectContent& object = *reply.object;
    if (!object.memory.empty()) {
      for (std::size_t i = 0; written && i < object.memory.size(); ++i)
        written = connection.write_all(object.memory[i]->bytes());
    } else {
      written = send_file(connection, object.file.get(), object.meta.size, exchange.scratch);
    }
  }
  logger_.debug("mock S3: {} {} -> {} {}", request.method, request.raw_path, head.status,
                reply.error ? reply.error->code : std::string());
  if (!keep_alive && !exchange.body.complete()) connection.linger_close(max_linger_bytes, linger_timeout_ms);
  return keep_alive && written;
}

void S3Handler::reject_head(HeadStatus status, BufferedReader& reader) {
  ++counters_.requests;
  auto [request_id, host_id] = ids_.next();
  S3Error error = status == HeadStatus::too_large
                      ? s3_error(400, "RequestHeaderSectionTooLarge",
                                 "Your request header section exceeds the maximum allowed size.")
                  : reader.connection().timed_out()
                      ? request_timeout_error()
                      : s3_error(400, "BadRequest", "An error occurred when parsing the HTTP request.");
  if (status == HeadStatus::too_large)
    error.details.emplace_back("MaxSizeAllowed", std::to_string(max_header_fields));
  ++counters_.rejected;
  counters_.record_error(error.code);
  ResponseHead head;
  head.status = error.status;
  head.headers = {
      {"x-amz-request-id", request_id}, {"x-amz-id-2", host_id}, {"Content-Type", "application/xml"}};
  std::string body = error_document(error, request_id, host_id);
  head.content_length = body.size();
  head.close = true;
  reader.connection().write_all(serialize(head) + body);
  logger_.debug("mock S3: unparsable request head -> {} {}", error.status, error.code);
  reader.connection().linger_close(max_linger_bytes, linger_timeout_ms);
}

}  // namespace s3up::mock
