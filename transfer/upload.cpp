// upload.cpp: upload(): the options checked before any request, the choice between one PutObject and a
// multipart upload, the multipart upload of zero-copy ranges, and completing or aborting an upload.
#include <algorithm>
#include <mutex>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "client/error.h"
#include "s3up/transfer.h"
#include "transfer/uploader.h"

namespace s3up {
namespace {

Error invalid(std::string message) {
  return make_error(Error::Kind::invalid_argument, "InvalidArgument", std::move(message));
}

ClientConfig with_call_location(ClientConfig config, const UploadOptions& options) {
  // CreateMultipartUpload decides whether the upload has a checksum from the configured location (none:
  // no checksum), so the call's location must be the configuration's for every Client of the call.
  if (options.put.checksum_location) config.checksum_location = *options.put.checksum_location;
  return config;
}

ClientConfig with_part_buffer(ClientConfig config, const UploadOptions& options) {
  config.upload_buffer_size = options.part_upload_buffer_size;
  return config;
}

}  // namespace

Uploader::Uploader(const ClientConfig& config, std::string_view bucket, std::string_view key,
                   const UploadOptions& options)
    : config_(with_call_location(config, options)),
      part_config_(with_part_buffer(config_, options)),
      bucket_(bucket),
      key_(key),
      options_(options),
      part_options_(options.put),
      coordinator_(config_) {
  // The content type is the object's: CreateMultipartUpload sends it. Progress is the upload's, per part.
  part_options_.content_type.clear();
  part_options_.progress = {};
}

std::optional<Error> Uploader::check_options() const {
  if (options_.concurrency < 1) {
    return invalid("concurrency must be at least 1, not " + std::to_string(options_.concurrency));
  }
  if (auto problem = upload_buffer_size_problem("part_upload_buffer_size", options_.part_upload_buffer_size))
    return invalid(*problem);
  if (auto problem = part_size_problem(options_.part_size, options_.part_size_floor))
    return invalid(*problem);
  // The algorithm CreateMultipartUpload would declare, under the client's provider; its refusal, or a
  // configuration error, ends the upload before any request.
  auto declared = coordinator_.multipart_checksum_algorithm(options_.put.checksum_algorithm);
  if (!declared) return declared.error();
  const std::optional<ChecksumAlgorithm> algorithm = declared.value();
  if (options_.checksum_type) {
    if (!algorithm) {
      return invalid("checksum type " + std::string(to_string(*options_.checksum_type)) +
                     " needs a checksum algorithm, and none is sent (checksum location none, or "
                     "when_required without an algorithm)");
    }
    if (!checksum_type_supported(*algorithm, *options_.checksum_type)) {
      return invalid(
          "S3 has no " + std::string(to_string(*options_.checksum_type)) + " " +
          std::string(algorithm_name(*algorithm)) +
          " checksum: FULL_OBJECT takes CRC32, CRC32C or CRC64NVME, COMPOSITE CRC32, CRC32C, SHA1 or "
          "SHA256");
    }
  }
  return std::nullopt;
}

int Uploader::threads_for(std::uint64_t parts) const {
  return static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(options_.concurrency), parts));
}

void Uploader::cancel() {
  std::lock_guard lock(cancel_mutex_);
  cancelled_ = true;
  coordinator_.cancel();
  if (workers_ != nullptr) workers_->fail(cancelled_error());
}

Uploader::CancelScope::CancelScope(Uploader& uploader, PartWorkers& workers) : uploader_(uploader) {
  std::lock_guard lock(uploader_.cancel_mutex_);
  uploader_.workers_ = &workers;
  if (uploader_.cancelled_) workers.fail(cancelled_error());
}

Uploader::CancelScope::~CancelScope() {
  std::lock_guard lock(uploader_.cancel_mutex_);
  uploader_.workers_ = nullptr;
}

Result<UploadResult> Uploader::run(BodySource& body) {
  if (auto error = check_options()) return *error;
  // Runs cancel() on request_stop(), from the thread that asks; at once if it was asked already.
  std::stop_callback on_stop(options_.cancel, [this] { cancel(); });
  const std::optional<std::uint64_t> size = body.size();
  progress_.emplace(options_.progress, size);
  if (!size) return upload_buffered(body, size);
  // An empty object has no part to upload: always one PutObject.
  if (*size == 0 || *size < options_.multipart_threshold) return put_whole(body);

  const PartPlan plan = plan_parts(*size, options_.part_size);
  if (plan.part_size > max_part_size) {
    return invalid("an object of " + std::to_string(*size) + " bytes needs parts of " +
                   std::to_string(plan.part_size) + " bytes to fit in " + std::to_string(max_part_count) +
                   " parts, above S3's largest part");
  }
  // Files and memory are cut into ranges read in place; other sources of known size go through buffers.
  bool rangeable = false;
  try {
    rangeable = body.range(0, *size) != nullptr;
  } catch (const BodyError& error) {
    return body_error(error);
  }
  if (rangeable) return upload_ranges(body, plan);
  return upload_buffered(body, size);
}

Result<UploadResult> Uploader::put_whole(BodySource& body) {
  PutObjectOptions options = options_.put;
  if (progress_->enabled()) {
    options.progress = [this](std::uint64_t bytes) { progress_->part_progress(1, bytes); };
  }
  auto put = coordinator_.put_object(bucket_, key_, body, options);
  if (!put) return put.error();
  progress_->finish(put->bytes);
  UploadResult result;
  result.etag = std::move(put->etag);
  result.bytes = put->bytes;
  result.parts = 0;
  result.checksum_algorithm = put->checksum_algorithm;
  // A single PutObject's checksum is the whole object's (reference §6.1).
  if (put->checksum_algorithm) result.checksum_type = ChecksumType::full_object;
  result.checksum = put->checksum_returned.empty() ? put->checksum_sent : put->checksum_returned;
  result.checksum_location = put->checksum_location;
  result.attempts = put->attempts;
  return result;
}

Result<MultipartUpload> Uploader::create() {
  CreateMultipartUploadOptions create_options;
  create_options.checksum_algorithm = options_.put.checksum_algorithm;
  create_options.checksum_type = options_.checksum_type;
  create_options.content_type = options_.put.content_type;
  return coordinator_.create_multipart_upload(bucket_, key_, create_options);
}

Result<UploadResult> Uploader::upload_ranges(const BodySource& body, const PartPlan& plan) {
  auto created = create();
  if (!created) return created.error();
  const MultipartUpload& upload = created.value();
  PartWorkers workers(part_config_, threads_for(static_cast<std::uint64_t>(plan.part_count)), upload,
                      part_options_, &body, nullptr, *progress_);
  CancelScope scope(*this, workers);
  for (int number = 1; number <= plan.part_count; ++number) {
    if (!workers.submit({.number = number, .offset = plan.offset(number), .length = plan.length(number)}))
      break;
  }
  return finish(upload, workers, *body.size());
}

Result<UploadResult> Uploader::finish(const MultipartUpload& upload, PartWorkers& workers,
                                      std::uint64_t bytes) {
  auto parts = workers.finish();
  if (!parts) return abort_after(upload, parts.error());
  // complete_multipart_upload checks the server's object checksum against the one our part checksums make.
  auto completed = coordinator_.complete_multipart_upload(upload, parts.value());
  if (!completed) return abort_after(upload, completed.error());
  progress_->finish(bytes);

  UploadResult result;
  result.etag = std::move(completed->etag);
  result.bytes = bytes;
  result.parts = static_cast<int>(parts->size());
  result.checksum_algorithm = upload.checksum_algorithm;
  if (upload.checksum_algorithm) result.checksum_type = upload.checksum_type;
  result.checksum = std::move(completed->checksum);
  result.checksum_location = workers.checksum_location();
  // CreateMultipartUpload and CompleteMultipartUpload count one each (their retries are not reported).
  result.attempts = workers.attempts() + 2;
  return result;
}

Error Uploader::abort_after(const MultipartUpload& upload, Error cause) {
  // No orphan: the parts sent so far would be stored, and billed, until someone aborts the upload. That
  // holds after a cancel too: the coordinator, stopped by it, is let through for this one request.
  coordinator_.reset_cancel();
  auto aborted = coordinator_.abort_multipart_upload(upload);
  if (aborted) {
    cause.message += " (multipart upload " + upload.upload_id + " aborted)";
  } else if (aborted.error().code != "NoSuchUpload") {
    cause.message +=
        "; aborting multipart upload " + upload.upload_id +
        " failed too, so its parts remain stored until it is aborted: " + aborted.error().to_string();
  }
  return cause;
}

Result<UploadResult> upload(const ClientConfig& config, std::string_view bucket, std::string_view key,
                            BodySource& body, const UploadOptions& options) {
  Uploader uploader(config, bucket, key, options);
  return uploader.run(body);
}

}  // namespace s3up
