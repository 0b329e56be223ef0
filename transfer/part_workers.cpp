// part_workers.cpp: the part upload threads, their queue, and how the first failure stops the others.
#include "transfer/part_workers.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "client/error.h"

namespace s3up {

PartWorkers::PartWorkers(const ClientConfig& config, int threads, const MultipartUpload& upload,
                         const PutObjectOptions& part_options, const BodySource* ranged_body,
                         PartBufferPool* pool, ProgressTracker& progress)
    : upload_(upload),
      part_options_(part_options),
      ranged_body_(ranged_body),
      pool_(pool),
      progress_(progress) {
  clients_.reserve(static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) clients_.emplace_back(config);
  threads_.reserve(clients_.size());
  for (Client& client : clients_) threads_.emplace_back([this, &client] { run(client); });
}

PartWorkers::~PartWorkers() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  queued_.notify_all();
  join();
}

void PartWorkers::join() {
  for (std::thread& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
}

bool PartWorkers::submit(PartJob job) {
  {
    std::lock_guard lock(mutex_);
    if (!failure_ && !closed_) {
      queue_.push_back(job);
      queued_.notify_one();
      return true;
    }
  }
  give_back(job);
  return false;
}

void PartWorkers::fail(Error error) {
  {
    std::lock_guard lock(mutex_);
    if (failure_) return;  // the parts cancelled because of the first failure fail too: not news
    failure_ = std::move(error);
  }
  // Parts in flight stop at curl's next callback; a backoff wakes at once. The producer, waiting for a
  // buffer, wakes with none.
  for (Client& client : clients_) client.cancel();
  if (pool_ != nullptr) pool_->close();
  queued_.notify_all();
}

Result<std::vector<CompletedPart>> PartWorkers::finish() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  queued_.notify_all();
  join();
  std::lock_guard lock(mutex_);
  if (failure_) return *failure_;
  std::sort(completed_.begin(), completed_.end(),
            [](const CompletedPart& a, const CompletedPart& b) { return a.part_number < b.part_number; });
  return completed_;
}

int PartWorkers::attempts() const {
  std::lock_guard lock(mutex_);
  return attempts_;
}

ChecksumLocation PartWorkers::checksum_location() const {
  std::lock_guard lock(mutex_);
  return location_;
}

void PartWorkers::give_back(PartJob& job) {
  if (pool_ != nullptr && job.buffer.data() != nullptr) pool_->release(job.buffer);
  job.buffer = {};
}

void PartWorkers::run(Client& client) {
  for (;;) {
    PartJob job;
    bool skip = false;
    {
      std::unique_lock lock(mutex_);
      queued_.wait(lock, [this] { return closed_ || failure_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = queue_.front();
      queue_.pop_front();
      skip = failure_.has_value();
    }
    if (!skip) upload_one(client, job);
    give_back(job);
  }
}

void PartWorkers::upload_one(Client& client, PartJob& job) {
  const std::string name = "part " + std::to_string(job.number);
  std::optional<MemorySource> buffered;
  std::unique_ptr<BodySource> range;
  BodySource* source = nullptr;
  if (job.buffer.data() != nullptr) {
    buffered.emplace(std::span<const std::byte>(job.buffer.first(job.length)));
    source = &*buffered;
  } else {
    try {
      range = ranged_body_->range(job.offset, job.length);
    } catch (const BodyError& error) {
      fail(body_error(error));
      return;
    }
    if (!range) {
      fail(make_error(Error::Kind::body, "BodyNotRangeable", "the body source cannot be split into parts"));
      return;
    }
    source = range.get();
  }

  PutObjectOptions options = part_options_;
  const int number = job.number;
  if (progress_.enabled()) {
    options.progress = [this, number](std::uint64_t bytes) { progress_.part_progress(number, bytes); };
  }
  auto result = client.upload_part(upload_, number, *source, options);
  if (!result) {
    Error error = result.error();
    error.message = name + " of " + std::to_string(job.length) + " bytes: " + error.message;
    fail(std::move(error));
    return;
  }
  progress_.part_progress(number, job.length);
  std::lock_guard lock(mutex_);
  attempts_ += result->attempts;
  location_ = result->checksum_location;
  completed_.push_back(CompletedPart{.part_number = number,
                                     .etag = std::move(result->etag),
                                     .checksum = std::move(result->checksum),
                                     .size = job.length});
}

}  // namespace s3up
