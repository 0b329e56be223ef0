// transfer/uploader.h: one upload() call: its settings checked and resolved once, the coordinating Client
// (PutObject, or Create/Complete/Abort around the parts), and the three ways an object goes: one PutObject,
// parts as zero-copy ranges of the body, or parts read into pool buffers.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "s3up/client.h"
#include "s3up/transfer.h"
#include "transfer/part_plan.h"
#include "transfer/part_workers.h"
#include "transfer/progress_tracker.h"

namespace s3up {

class Uploader {
 public:
  Uploader(const ClientConfig& config, std::string_view bucket, std::string_view key,
           const UploadOptions& options);

  Result<UploadResult> run(BodySource& body);

 private:
  // Options S3 would refuse, found before any request.
  std::optional<Error> check_options() const;
  // One PutObject of the whole body (known size).
  Result<UploadResult> put_whole(BodySource& body);
  // Multipart, every part a range of the body read in place (buffered_parts.cpp has the other way).
  Result<UploadResult> upload_ranges(const BodySource& body, const PartPlan& plan);
  // Multipart from a body read part by part into pool buffers; the threshold decided by reading when the
  // size is unknown (then a short stream goes by one PutObject from the buffers it was read into).
  Result<UploadResult> upload_buffered(BodySource& body, std::optional<std::uint64_t> size);

  Result<MultipartUpload> create();
  // Completes the upload with the parts the workers sent, or aborts it after the first failure.
  Result<UploadResult> finish(const MultipartUpload& upload, PartWorkers& workers, std::uint64_t bytes);
  Error abort_after(const MultipartUpload& upload, Error cause);
  int threads_for(std::uint64_t parts) const;

  // UploadOptions::cancel: stops the coordinator and the part workers of the moment.
  void cancel();
  // Makes `workers` the ones cancel() stops while this object lives (and cancels them at once if cancel()
  // came first).
  class CancelScope {
   public:
    CancelScope(Uploader& uploader, PartWorkers& workers);
    ~CancelScope();
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

   private:
    Uploader& uploader_;
  };

  ClientConfig config_;       // the caller's, with the call's checksum location applied
  ClientConfig part_config_;  // the part workers': config_ with UploadOptions::part_upload_buffer_size
  std::string bucket_;
  std::string key_;
  const UploadOptions& options_;
  PutObjectOptions part_options_;  // the parts': options_.put without what belongs to the object
  Client coordinator_;
  std::optional<ProgressTracker> progress_;
  std::mutex cancel_mutex_;
  bool cancelled_ = false;
  PartWorkers* workers_ = nullptr;  // while a CancelScope lives
};

}  // namespace s3up
