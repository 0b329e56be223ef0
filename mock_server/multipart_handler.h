// multipart_handler.h: the multipart upload operations (reference §6.5) — CreateMultipartUpload, UploadPart
// (its body received, decoded and verified exactly like a PutObject body), CompleteMultipartUpload,
// AbortMultipartUpload, ListParts, ListMultipartUploads — with S3's checks and errors.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "http_body.h"
#include "http_response.h"
#include "multipart_store.h"
#include "request_auth.h"
#include "s3_error.h"
#include "s3up/mock_server.h"
#include "s3up/sigv4.h"

namespace s3up::mock {

class ObjectStore;

enum class MultipartOperation { create, upload_part, complete, abort, list_parts, list_uploads };

// Which multipart operation a request is, from its method and sub-resource (?uploads, ?uploadId=...);
// nullopt for every other request. has_key: the path names an object, not only a bucket.
std::optional<MultipartOperation> multipart_operation(std::string_view method, bool has_key,
                                                      const std::vector<sigv4::QueryParameter>& query);

// A verified request (signature checked), its body not read yet.
struct MultipartRequest {
  const HttpRequest& request;
  RequestBody& body;
  std::span<std::byte> scratch;
  const VerifiedAuth& auth;
  const std::vector<sigv4::QueryParameter>& query;
  const std::string& bucket;
  const std::string& key;  // "" for ListMultipartUploads
  bool virtual_hosted;     // the bucket came from the Host header (for the Location of a completed object)
};

// A success: the head (status, headers, Content-Length) and the XML body, if any.
struct MultipartResponse {
  ResponseHead head;
  std::string body;
};

class MultipartHandler {
 public:
  MultipartHandler(const ServerOptions& options, ObjectStore& store);

  std::optional<S3Error> serve(MultipartOperation operation, const MultipartRequest& request,
                               MultipartResponse& response);
  std::size_t upload_count() const { return uploads_.count(); }

 private:
  std::optional<S3Error> create(const MultipartRequest& request, MultipartResponse& response);
  std::optional<S3Error> upload_part(const MultipartRequest& request, MultipartResponse& response);
  std::optional<S3Error> complete(const MultipartRequest& request, MultipartResponse& response);
  std::optional<S3Error> abort(const MultipartRequest& request, MultipartResponse& response);
  std::optional<S3Error> list_parts(const MultipartRequest& request, MultipartResponse& response);
  std::optional<S3Error> list_uploads(const MultipartRequest& request, MultipartResponse& response);

  const ServerOptions& options_;
  ObjectStore& store_;
  MultipartStore uploads_;
};

}  // namespace s3up::mock
