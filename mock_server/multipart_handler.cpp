// multipart_handler.cpp: CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload,
// ListParts and ListMultipartUploads, with the checks and error texts S3 answers (reference §6, §7.2).
#include "multipart_handler.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <ctime>
#include <limits>
#include <string_view>

#include "http_request.h"
#include "multipart_checksum.h"
#include "multipart_xml.h"
#include "object_store.h"
#include "put_object.h"
#include "put_request.h"
#include "small_body.h"

namespace s3up::mock {

namespace {

constexpr std::int64_t max_part_number = 10000;
// 10,000 parts with SHA-256 checksums take about 1.5 MB of XML.
constexpr std::uint64_t max_complete_document = 4ULL << 20;
// S3 answers at most this many parts or uploads per list request, whatever max-parts asks.
constexpr std::int64_t max_list_page = 1000;

const std::string* parameter(const std::vector<sigv4::QueryParameter>& query, std::string_view name) {
  for (const auto& p : query)
    if (p.name == name) return &p.value;
  return nullptr;
}

S3Error no_such_upload(std::string_view upload_id) {
  S3Error error = s3_error(404, "NoSuchUpload",
                           "The specified upload does not exist. The upload ID may be invalid, or the upload "
                           "may have been aborted or completed.");
  error.details.emplace_back("UploadId", std::string(upload_id));
  return error;
}

S3Error no_such_bucket(const std::string& bucket) {
  S3Error error = s3_error(404, "NoSuchBucket", "The specified bucket does not exist");
  error.details.emplace_back("BucketName", bucket);
  return error;
}

S3Error invalid_argument(std::string_view message, std::string_view name, std::string_view value) {
  S3Error error = s3_error(400, "InvalidArgument", message);
  error.details.emplace_back("ArgumentName", std::string(name));
  error.details.emplace_back("ArgumentValue", std::string(value));
  return error;
}

S3Error not_implemented(std::string_view what) {
  return s3_error(501, "NotImplemented", std::string(what) + " is not implemented by the s3up mock server");
}

// S3 takes an ETag with or without its quotes (and reports it without them).
std::string_view unquoted(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') return etag.substr(1, etag.size() - 2);
  return etag;
}

// The bytes behind a quoted hex ETag, as the multipart ETag hashes them.
Digest etag_bytes(std::string_view etag) {
  std::string_view hex = unquoted(etag);
  std::array<std::byte, max_digest_size> bytes{};
  std::size_t n = std::min(hex.size() / 2, bytes.size());
  auto nibble = [](char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : 0;
  };
  for (std::size_t i = 0; i < n; ++i)
    bytes[i] = static_cast<std::byte>(nibble(hex[2 * i]) * 16 + nibble(hex[2 * i + 1]));
  return Digest(std::span(bytes).first(n));
}

// "0".."2147483647", as S3 bounds max-parts, part-number-marker and max-uploads.
std::optional<S3Error> list_argument(const std::vector<sigv4::QueryParameter>& query, std::string_view name,
                                     std::int64_t& value) {
  const std::string* text = parameter(query, name);
  if (!text) return std::nullopt;
  bool digits = !text->empty() && text->size() <= 10 &&
                std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || std::stoll(*text) > std::numeric_limits<std::int32_t>::max()) {
    return invalid_argument("Argument " + std::string(name) + " must be an integer between 0 and 2147483647",
                            name, *text);
  }
  value = std::stoll(*text);
  return std::nullopt;
}

// The owner every listing shows: one account, whose canonical id is derived from the access key.
void write_owner(XmlWriter& xml, const ServerOptions& options, std::string_view element) {
  xml.open(element);
  xml.element("ID", compute_checksum(ChecksumAlgorithm::sha256, options.access_key).hex());
  xml.element("DisplayName", "s3up");
  xml.close(element);
}

void xml_response(MultipartResponse& response, std::string body) {
  response.head.headers.push_back({"Content-Type", "application/xml"});
  response.head.content_length = body.size();
  response.body = std::move(body);
}

// What CompleteMultipartUpload's headers ask to be checked against the object.
struct CompleteHeaders {
  std::optional<std::string> type;                                    // x-amz-checksum-type
  std::optional<std::pair<ChecksumAlgorithm, std::string>> checksum;  // x-amz-checksum-<algorithm>
  std::optional<std::uint64_t> object_size;                           // x-amz-mp-object-size
};

std::optional<S3Error> parse_complete_headers(const HttpRequest& request, CompleteHeaders& headers) {
  if (auto type = request.value("x-amz-checksum-type")) headers.type = trim_http_whitespace(*type);
  for (const auto& header : request.headers) {
    std::string name = ascii_lowercase(header.name);
    auto algorithm = algorithm_from_header(name);
    if (!algorithm || *algorithm == ChecksumAlgorithm::md5) continue;
    if (headers.checksum) {
      return s3_error(400, "InvalidRequest",
                      "Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.");
    }
    headers.checksum.emplace(*algorithm, std::string(trim_http_whitespace(header.value)));
  }
  if (auto size = request.value("x-amz-mp-object-size")) {
    std::string_view text = trim_http_whitespace(*size);
    if (text.empty() || text.size() > 19 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return s3_error(400, "InvalidRequest", "Value for x-amz-mp-object-size header is invalid.");
    }
    headers.object_size = std::stoull(std::string(text));
  }
  return std::nullopt;
}

// The object a successful CompleteMultipartUpload makes.
struct CompletedObject {
  StoredObject meta;
  std::vector<int> part_numbers;
  std::optional<std::pair<ChecksumAlgorithm, std::string>> answered_checksum;  // for the result document
  std::string answered_type;
};

S3Error invalid_part(const std::string& upload_id, std::int64_t number, std::string_view etag) {
  S3Error error =
      s3_error(400, "InvalidPart",
               "One or more of the specified parts could not be found.  The part may not have been "
               "uploaded, or the specified entity tag may not match the part's entity tag.");
  error.details.emplace_back("UploadId", upload_id);
  error.details.emplace_back("PartNumber", std::to_string(number));
  error.details.emplace_back("ETag", std::string(unquoted(etag)));
  return error;
}

S3Error invalid_part_order(const std::string& upload_id) {
  S3Error error =
      s3_error(400, "InvalidPartOrder",
               "The list of parts was not in ascending order. Parts must be ordered by part number.");
  error.details.emplace_back("UploadId", upload_id);
  return error;
}

// The checksum elements of one listed part against the part received (reference §6.5, S3's errors as
// observed): an upload with an algorithm needs that algorithm's element on every part, and one without
// takes none.
std::optional<S3Error> check_part_checksums(const Upload& upload, const CompletedPart& listed,
                                            const PartRecord& part) {
  const auto& algorithm = upload.checksum.algorithm;
  if (!algorithm) {
    if (!listed.checksums.empty()) return invalid_part(upload.id, listed.number, listed.etag);
    return std::nullopt;
  }
  if (listed.checksums.empty()) {
    return s3_error(400, "InvalidRequest",
                    "The upload was created using a " + ascii_lowercase(algorithm_name(*algorithm)) +
                        " checksum. The complete request must include the checksum for each part. It was "
                        "missing for part " +
                        std::to_string(listed.number) + " in the request.");
  }
  for (const auto& [name, value] : listed.checksums) {
    if (name != xml_element_name(*algorithm) || value != part.checksum.base64())
      return invalid_part(upload.id, listed.number, listed.etag);
  }
  return std::nullopt;
}

// Every check of CompleteMultipartUpload against the upload, in the order S3 reports them; on success
// `object` is the object to publish. Runs under the MultipartStore's lock.
std::optional<S3Error> check_completion(const Upload& upload, const std::vector<CompletedPart>& listed,
                                        const CompleteHeaders& headers, const ServerOptions& options,
                                        CompletedObject& object) {
  const auto& algorithm = upload.checksum.algorithm;
  // Without an algorithm S3 computes a FULL_OBJECT CRC64NVME of its own: that is the mode it compares with.
  const ChecksumType type = algorithm ? upload.checksum.type : ChecksumType::full_object;
  if (headers.type && !ascii_iequals(*headers.type, checksum_type_name(type))) {
    // The model documents BadDigest; the message is versitygw's (reference §7.2).
    return s3_error(400, "BadDigest",
                    "The upload was created using the " + std::string(checksum_type_name(type)) +
                        " checksum mode. The complete request must use the same checksum mode.");
  }
  if (headers.checksum && headers.checksum->first != algorithm.value_or(ChecksumAlgorithm::crc64nvme))
    return checksum_type_mismatch(algorithm, headers.checksum->first);

  // Without an algorithm the parts may each carry a different one: then there is nothing to combine.
  const ChecksumAlgorithm object_algorithm = algorithm.value_or(ChecksumAlgorithm::crc64nvme);
  bool computable = true;
  std::vector<PartDigests> digests;
  digests.reserve(listed.size());
  std::int64_t previous = 0;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const CompletedPart& entry = listed[i];
    // With checksums the numbers must run 1, 2, 3... (model: PartNumber); without, only ascend.
    if (entry.number <= previous || (algorithm && entry.number != previous + 1))
      return invalid_part_order(upload.id);
    previous = entry.number;
    auto found = entry.number > max_part_number ? upload.parts.end()
                                                : upload.parts.find(static_cast<int>(entry.number));
    if (found == upload.parts.end() || unquoted(entry.etag) != unquoted(found->second.etag))
      return invalid_part(upload.id, entry.number, entry.etag);
    const PartRecord& part = found->second;
    if (auto error = check_part_checksums(upload, entry, part)) return error;
    if (i + 1 < listed.size() && part.size < options.min_part_size) {
      S3Error error =
          s3_error(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed size");
      error.details.emplace_back("ProposedSize", std::to_string(part.size));
      error.details.emplace_back("MinSizeAllowed", std::to_string(options.min_part_size));
      error.details.emplace_back("PartNumber", std::to_string(entry.number));
      error.details.emplace_back("ETag", std::string(unquoted(part.etag)));
      return error;
    }
    computable = computable && part.checksum_algorithm == object_algorithm;
    digests.push_back({part.size, part.checksum, part.etag_digest});
    object.part_numbers.push_back(static_cast<int>(entry.number));
    object.meta.size += part.size;
  }

  // The object's checksum: the declared algorithm's, or, without one, a CRC64NVME that S3 answers on
  // Complete but does not keep on the object.
  std::optional<Digest> checksum;
  if (computable) checksum = object_checksum(object_algorithm, type, digests);
  if (algorithm && !checksum) return internal_error("the parts' checksums do not combine");
  std::string checksum_text =
      checksum ? object_checksum_text(*checksum, type, digests.size()) : std::string();

  if (headers.checksum) {
    const std::string& sent = headers.checksum->second;
    std::string name(header_name(object_algorithm));
    bool matches;
    if (type == ChecksumType::composite) {
      // S3 compares the "-N" text it answers; the bare base64 is taken too.
      matches = checksum && (sent == checksum_text || sent == checksum->base64());
    } else {
      auto digest = base64_decode_digest(sent);
      if (!digest || digest->size() != digest_size(object_algorithm))
        return s3_error(400, "InvalidRequest", "Value for " + name + " header is invalid.");
      matches = checksum && *digest == *checksum;
    }
    if (!matches) {
      return s3_error(400, "BadDigest",
                      "The " + std::string(algorithm_name(object_algorithm)) +
                          " you specified did not match the calculated checksum.");
    }
  }
  if (headers.object_size && *headers.object_size != object.meta.size) {
    return s3_error(400, "InvalidRequest",
                    "The provided 'x-amz-mp-object-size' header does not match what was computed");
  }

  object.meta.etag = multipart_etag(digests);
  object.meta.content_type = upload.content_type;
  object.meta.parts = static_cast<int>(digests.size());
  if (checksum) {
    object.answered_checksum.emplace(object_algorithm, checksum_text);
    object.answered_type = checksum_type_name(type);
  }
  if (algorithm) {
    object.meta.checksum.emplace(std::string(header_name(*algorithm)), checksum_text);
    object.meta.checksum_type = checksum_type_name(type);
  }
  return std::nullopt;
}

}  // namespace

std::optional<MultipartOperation> multipart_operation(std::string_view method, bool has_key,
                                                      const std::vector<sigv4::QueryParameter>& query) {
  const bool uploads = parameter(query, "uploads") != nullptr;
  const bool upload_id = parameter(query, "uploadId") != nullptr;
  if (uploads == upload_id) return std::nullopt;
  if (!has_key) {
    if (method == "GET" && uploads) return MultipartOperation::list_uploads;
    return std::nullopt;
  }
  if (uploads) return method == "POST" ? std::optional(MultipartOperation::create) : std::nullopt;
  if (method == "PUT") return MultipartOperation::upload_part;
  if (method == "POST") return MultipartOperation::complete;
  if (method == "DELETE") return MultipartOperation::abort;
  if (method == "GET") return MultipartOperation::list_parts;
  return std::nullopt;
}

MultipartHandler::MultipartHandler(const ServerOptions& options, ObjectStore& store)
    : options_(options), store_(store) {}

std::optional<S3Error> MultipartHandler::serve(MultipartOperation operation, const MultipartRequest& request,
                                               MultipartResponse& response) {
  // The parameters each operation defines (x-id: SDKs name the operation for tracing); any other selects
  // something the mock server does not have.
  std::vector<std::string_view> known = {"x-id"};
  switch (operation) {
    case MultipartOperation::create:
      known.insert(known.end(), {"uploads"});
      break;
    case MultipartOperation::upload_part:
      known.insert(known.end(), {"uploadId", "partNumber"});
      break;
    case MultipartOperation::complete:
    case MultipartOperation::abort:
      known.insert(known.end(), {"uploadId"});
      break;
    case MultipartOperation::list_parts:
      known.insert(known.end(), {"uploadId", "max-parts", "part-number-marker"});
      break;
    case MultipartOperation::list_uploads:
      known.insert(known.end(), {"uploads", "prefix", "delimiter", "key-marker", "upload-id-marker",
                                 "max-uploads", "encoding-type"});
      break;
  }
  for (const auto& p : request.query) {
    if (std::find(known.begin(), known.end(), p.name) == known.end())
      return not_implemented("The '" + p.name + "' query parameter");
  }
  switch (operation) {
    case MultipartOperation::create:
      return create(request, response);
    case MultipartOperation::upload_part:
      return upload_part(request, response);
    case MultipartOperation::complete:
      return complete(request, response);
    case MultipartOperation::abort:
      return abort(request, response);
    case MultipartOperation::list_parts:
      return list_parts(request, response);
    case MultipartOperation::list_uploads:
      return list_uploads(request, response);
  }
  return internal_error("unknown multipart operation");
}

std::optional<S3Error> MultipartHandler::create(const MultipartRequest& request,
                                                MultipartResponse& response) {
  const bool has_bucket = store_.has_bucket(request.bucket);
  if (!has_bucket && !options_.auto_create_buckets) return no_such_bucket(request.bucket);
  Upload upload;
  if (auto error = parse_upload_checksum(request.request, upload.checksum)) return error;
  if (auto error = receive_small_body(request.request, request.body, request.scratch)) return error;
  if (!has_bucket) store_.create_bucket(request.bucket);  // as a PutObject would

  upload.bucket = request.bucket;
  upload.key = request.key;
  upload.content_type = request.request.value("content-type").value_or("binary/octet-stream");
  upload.initiated = std::time(nullptr);
  const UploadChecksum checksum = upload.checksum;
  std::string id = uploads_.create(std::move(upload));

  if (checksum.algorithm) {
    response.head.headers.push_back(
        {"x-amz-checksum-algorithm", std::string(algorithm_name(*checksum.algorithm))});
    response.head.headers.push_back({"x-amz-checksum-type", std::string(checksum_type_name(checksum.type))});
  }
  XmlWriter xml("InitiateMultipartUploadResult");
  xml.element("Bucket", request.bucket);
  xml.element("Key", request.key);
  xml.element("UploadId", id);
  xml_response(response, xml.finish());
  return std::nullopt;
}

std::optional<S3Error> MultipartHandler::upload_part(const MultipartRequest& request,
                                                     MultipartResponse& response) {
  const HttpRequest& http = request.request;
  if (http.find("x-amz-copy-source")) return not_implemented("UploadPartCopy");
  const std::string* number_text = parameter(request.query, "partNumber");
  const std::string& id = *parameter(request.query, "uploadId");
  bool valid_number =
      number_text && !number_text->empty() && number_text->size() <= 5 &&
      std::all_of(number_text->begin(), number_text->end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      std::stoi(*number_text) >= 1 && std::stoi(*number_text) <= max_part_number;
  if (!valid_number) {
    return invalid_argument("Part number must be an integer between 1 and 10000, inclusive", "partNumber",
                            number_text ? *number_text : std::string());
  }
  const int number = std::stoi(*number_text);
  if (!store_.has_bucket(request.bucket)) return no_such_bucket(request.bucket);
  auto upload = uploads_.find(id, request.bucket, request.key, false);
  if (!upload) return no_such_upload(id);

  PutPlan plan;
  if (auto error = plan_put_object(http, options_, plan)) return error;
  // The part's checksum against the upload's (S3's answers as observed): another algorithm is refused; none
  // at all is refused for COMPOSITE, whose value is made of the part checksums the client computed, while
  // for FULL_OBJECT S3 computes the part's CRC itself.
  if (const auto& algorithm = upload->checksum.algorithm) {
    if (plan.checksum.algorithm ? *plan.checksum.algorithm != *algorithm
                                : upload->checksum.type == ChecksumType::composite) {
      return checksum_type_mismatch(algorithm, plan.checksum.algorithm);
    }
    plan.default_checksum = *algorithm;
  }
  std::optional<std::uint64_t> size;
  if (auto error = announced_size(plan, request.body, size)) return error;

  // The same pipeline as a PutObject body: decoded, hashed and verified on the way into the part's buffer.
  auto writer = store_.begin_part(size);
  StoredObject received;
  if (auto error = receive_put_object(plan, request.auth, request.body, *writer, request.scratch, received))
    return error;
  PartRecord part;
  part.data = store_.keep_part(std::move(writer));
  if (!part.data) return internal_error("the part could not be stored");
  part.size = received.size;
  part.etag = received.etag;
  part.etag_digest = etag_bytes(received.etag);
  part.checksum_algorithm = *algorithm_from_header(received.checksum->first);
  part.checksum = *base64_decode_digest(received.checksum->second);
  part.last_modified = std::time(nullptr);
  if (!uploads_.put_part(id, request.bucket, request.key, number, std::move(part))) return no_such_upload(id);

  // S3 answers the part's checksum even when the client sent none (reference §6.5).
  response.head.headers.push_back({"ETag", received.etag});
  response.head.headers.push_back({received.checksum->first, received.checksum->second});
  response.head.content_length = 0;
  return std::nullopt;
}

std::optional<S3Error> MultipartHandler::complete(const MultipartRequest& request,
                                                  MultipartResponse& response) {
  const std::string& id = *parameter(request.query, "uploadId");
  std::string document;
  if (auto error = receive_small_body(request.request, request.body, request.scratch, &document,
                                      max_complete_document))
    return error;
  if (!store_.has_bucket(request.bucket)) return no_such_bucket(request.bucket);
  std::vector<CompletedPart> listed;
  if (auto error = parse_complete_document(document, listed)) return error;
  for (const CompletedPart& part : listed) {
    if (part.number < 1)
      return invalid_argument("PartNumber must be >= 1", "PartNumber", std::to_string(part.number));
  }
  CompleteHeaders headers;
  if (auto error = parse_complete_headers(request.request, headers)) return error;

  CompletedObject object;
  std::optional<S3Error> refusal;
  Upload taken;
  auto check = [&](const Upload& upload) {
    return check_completion(upload, listed, headers, options_, object);
  };
  if (!uploads_.take_if(id, request.bucket, request.key, check, refusal, taken)) return no_such_upload(id);
  if (refusal) return refusal;  // the upload stays in progress, as S3 leaves it

  std::vector<std::shared_ptr<const StoredPart>> parts;
  parts.reserve(object.part_numbers.size());
  for (int number : object.part_numbers) parts.push_back(taken.parts.at(number).data);
  // The upload has left the store: if publishing fails now it is gone, as after S3's InternalError the
  // client starts over. Parts not listed are dropped with `taken`.
  if (!store_.commit_multipart(request.bucket, request.key, parts, object.meta))
    return internal_error("the object could not be stored");

  std::string host(trim_http_whitespace(request.request.value("host").value_or("")));
  std::string location = (options_.tls ? "https://" : "http://") + host + "/" +
                         (request.virtual_hosted ? std::string() : request.bucket + "/") +
                         sigv4::uri_encode(request.key, true);
  XmlWriter xml("CompleteMultipartUploadResult");
  xml.element("Location", location);
  xml.element("Bucket", request.bucket);
  xml.element("Key", request.key);
  xml.element("ETag", object.meta.etag);
  if (object.answered_checksum) {
    xml.element(xml_element_name(object.answered_checksum->first), object.answered_checksum->second);
    xml.element("ChecksumType", object.answered_type);
  }
  xml_response(response, xml.finish());
  return std::nullopt;
}

std::optional<S3Error> MultipartHandler::abort(const MultipartRequest& request, MultipartResponse& response) {
  const std::string& id = *parameter(request.query, "uploadId");
  if (auto error = receive_small_body(request.request, request.body, request.scratch)) return error;
  if (!store_.has_bucket(request.bucket)) return no_such_bucket(request.bucket);
  if (!uploads_.remove(id, request.bucket, request.key)) return no_such_upload(id);
  response.head.status = 204;
  return std::nullopt;
}

std::optional<S3Error> MultipartHandler::list_parts(const MultipartRequest& request,
                                                    MultipartResponse& response) {
  const std::string& id = *parameter(request.query, "uploadId");
  if (auto error = receive_small_body(request.request, request.body, request.scratch)) return error;
  std::int64_t max_parts = max_list_page;
  std::int64_t marker = 0;
  if (auto error = list_argument(request.query, "max-parts", max_parts)) return error;
  if (auto error = list_argument(request.query, "part-number-marker", marker)) return error;
  if (!store_.has_bucket(request.bucket)) return no_such_bucket(request.bucket);
  auto upload = uploads_.find(id, request.bucket, request.key, true);
  if (!upload) return no_such_upload(id);

  XmlWriter xml("ListPartsResult");
  xml.element("Bucket", request.bucket);
  xml.element("Key", request.key);
  xml.element("UploadId", id);
  xml.element("PartNumberMarker", std::to_string(marker));
  const auto& algorithm = upload->checksum.algorithm;
  if (algorithm) {
    xml.element("ChecksumAlgorithm", algorithm_name(*algorithm));
    xml.element("ChecksumType", checksum_type_name(upload->checksum.type));
  }
  std::int64_t page = std::min(max_parts, max_list_page);
  std::int64_t next_marker = marker;
  std::int64_t listed = 0;
  auto it = upload->parts.upper_bound(static_cast<int>(std::min<std::int64_t>(marker, max_part_number)));
  for (; it != upload->parts.end() && listed < page; ++it, ++listed) {
    const auto& [number, part] = *it;
    xml.open("Part");
    xml.element("PartNumber", std::to_string(number));
    xml.element("LastModified", iso8601(part.last_modified));
    xml.element("ETag", part.etag);
    xml.element("Size", std::to_string(part.size));
    // Without a declared algorithm S3 keeps no part checksum to list (its CRC64NVME is not stored).
    if (algorithm) xml.element(xml_element_name(*algorithm), part.checksum.base64());
    xml.close("Part");
    next_marker = number;
  }
  xml.element("NextPartNumberMarker", std::to_string(next_marker));
  xml.element("MaxParts", std::to_string(max_parts));
  xml.element("IsTruncated", page > 0 && it != upload->parts.end() ? "true" : "false");
  write_owner(xml, options_, "Initiator");
  write_owner(xml, options_, "Owner");
  xml.element("StorageClass", "STANDARD");
  xml_response(response, xml.finish());
  return std::nullopt;
}

std::optional<S3Error> MultipartHandler::list_uploads(const MultipartRequest& request,
                                                      MultipartResponse& response) {
  if (auto error = receive_small_body(request.request, request.body, request.scratch)) return error;
  std::int64_t max_uploads = max_list_page;
  if (auto error = list_argument(request.query, "max-uploads", max_uploads)) return error;
  const std::string* encoding = parameter(request.query, "encoding-type");
  if (encoding && *encoding != "url")
    return invalid_argument("Invalid Encoding Method specified in Request", "encoding-type", *encoding);
  if (!store_.has_bucket(request.bucket)) return no_such_bucket(request.bucket);
  auto text = [&](const char* name) {
    const std::string* value = parameter(request.query, name);
    return value ? *value : std::string();
  };
  const std::string prefix = text("prefix");
  const std::string delimiter = text("delimiter");
  const std::string key_marker = text("key-marker");
  // S3 ignores an upload-id-marker without a key-marker.
  const std::string id_marker = key_marker.empty() ? std::string() : text("upload-id-marker");
  // encoding-type=url: keys and prefixes percent-encoded, as botocore asks and then decodes.
  auto encode = [&](const std::string& value) { return encoding ? sigv4::uri_encode(value, false) : value; };

  std::vector<Upload> all = uploads_.list(request.bucket);
  std::uint64_t marker_sequence = 0;  // uploads of the marker key after this one are listed
  bool marker_found = false;
  for (const Upload& upload : all) {
    if (!id_marker.empty() && upload.key == key_marker && upload.id == id_marker) {
      marker_sequence = upload.sequence;
      marker_found = true;
    }
  }
  const std::int64_t page = std::min(max_uploads, max_list_page);
  std::vector<const Upload*> uploads;
  std::vector<std::string> prefixes;
  std::string next_key, next_id;
  bool truncated = false;
  for (const Upload& upload : all) {
    if (!upload.key.starts_with(prefix)) continue;
    bool after_marker = key_marker.empty() || upload.key > key_marker ||
                        (upload.key == key_marker && marker_found && upload.sequence > marker_sequence);
    if (!after_marker) continue;
    std::string common;
    if (!delimiter.empty()) {
      std::size_t at = upload.key.find(delimiter, prefix.size());
      if (at != std::string::npos) common = upload.key.substr(0, at + delimiter.size());
    }
    // A common prefix is one entry, listed once, and never again after a key-marker that is it.
    if (!common.empty() && ((!prefixes.empty() && prefixes.back() == common) || common <= key_marker))
      continue;
    if (static_cast<std::int64_t>(uploads.size() + prefixes.size()) >= page) {
      truncated = page > 0;
      break;
    }
    if (common.empty()) {
      uploads.push_back(&upload);
      next_key = upload.key;
      next_id = upload.id;
    } else {
      prefixes.push_back(common);
      next_key = common;
      next_id.clear();
    }
  }

  XmlWriter xml("ListMultipartUploadsResult");
  xml.element("Bucket", request.bucket);
  xml.element("KeyMarker", encode(key_marker));
  xml.element("UploadIdMarker", id_marker);
  xml.element("NextKeyMarker", encode(next_key));
  xml.element("NextUploadIdMarker", next_id);
  if (!delimiter.empty()) xml.element("Delimiter", encode(delimiter));
  xml.element("Prefix", encode(prefix));
  xml.element("MaxUploads", std::to_string(max_uploads));
  xml.element("IsTruncated", truncated ? "true" : "false");
  if (encoding) xml.element("EncodingType", "url");
  for (const Upload* upload : uploads) {
    xml.open("Upload");
    xml.element("Key", encode(upload->key));
    xml.element("UploadId", upload->id);
    write_owner(xml, options_, "Initiator");
    write_owner(xml, options_, "Owner");
    xml.element("StorageClass", "STANDARD");
    xml.element("Initiated", iso8601(upload->initiated));
    if (upload->checksum.algorithm) {
      xml.element("ChecksumAlgorithm", algorithm_name(*upload->checksum.algorithm));
      xml.element("ChecksumType", checksum_type_name(upload->checksum.type));
    }
    xml.close("Upload");
  }
  for (const std::string& common : prefixes) {
    xml.open("CommonPrefixes");
    xml.element("Prefix", encode(common));
    xml.close("CommonPrefixes");
  }
  xml_response(response, xml.finish());
  return std::nullopt;
}

}  // namespace s3up::mock
