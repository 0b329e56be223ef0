// transfer/part_workers.h: the threads that upload the parts of one multipart upload. Each thread owns its
// Client (its curl handle, its connection, its retry loop: a failed part is retried alone, from its own
// source), takes parts from a queue, and records the part for CompleteMultipartUpload. The first failure
// that survives its retries stops the upload: every part still in flight is cancelled, the rest skipped.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <thread>
#include <vector>

#include "s3up/client.h"
#include "transfer/part_buffer_pool.h"
#include "transfer/progress_tracker.h"

namespace s3up {

// One part to send: bytes [offset, offset + length) of the body as a zero-copy range, or, when buffer is
// set, the first `length` bytes of that pool buffer (given back to the pool once the part is done).
struct PartJob {
  int number = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::span<std::byte> buffer{};
};

class PartWorkers {
 public:
  // ranged_body: the body the ranges are cut from (null when every part comes in a buffer); pool: where the
  // buffers go back (null for ranges). Both, and progress, must outlive this object.
  PartWorkers(const ClientConfig& config, int threads, const MultipartUpload& upload,
              const PutObjectOptions& part_options, const BodySource* ranged_body, PartBufferPool* pool,
              ProgressTracker& progress);
  ~PartWorkers();  // stops and joins the threads
  PartWorkers(const PartWorkers&) = delete;
  PartWorkers& operator=(const PartWorkers&) = delete;

  // Queues a part; false (and the buffer given back) once the upload has failed.
  bool submit(PartJob job);
  // A failure outside the parts (reading the body): stops the upload as a part's failure would.
  void fail(Error error);
  // No more parts: waits for the queued ones; every part in part order, or the first failure.
  Result<std::vector<CompletedPart>> finish();
  int attempts() const;  // requests the parts took, retries included
  // Where the parts' checksums travelled (every part plans it alike); none before a part is done.
  ChecksumLocation checksum_location() const;

 private:
  void run(Client& client);
  void upload_one(Client& client, PartJob& job);
  void give_back(PartJob& job);
  void join();

  const MultipartUpload& upload_;
  const PutObjectOptions& part_options_;
  const BodySource* ranged_body_;
  PartBufferPool* pool_;
  ProgressTracker& progress_;
  std::vector<Client> clients_;  // one per thread, made before the threads start
  std::vector<std::thread> threads_;

  mutable std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<PartJob> queue_;
  bool closed_ = false;           // no more submits
  std::optional<Error> failure_;  // the first one
  std::vector<CompletedPart> completed_;
  int attempts_ = 0;
  ChecksumLocation location_ = ChecksumLocation::none;
};

}  // namespace s3up
