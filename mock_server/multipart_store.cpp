// multipart_store.cpp: the registry of multipart uploads in progress.
#include "multipart_store.h"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <random>

namespace s3up::mock {

namespace {

Upload without_parts(const Upload& upload) {
  Upload copy;
  copy.id = upload.id;
  copy.bucket = upload.bucket;
  copy.key = upload.key;
  copy.checksum = upload.checksum;
  copy.content_type = upload.content_type;
  copy.initiated = upload.initiated;
  copy.sequence = upload.sequence;
  return copy;
}

}  // namespace

MultipartStore::MultipartStore() {
  std::random_device random;
  id_seed_ = (static_cast<std::uint64_t>(random()) << 32) ^ random();
}

std::string MultipartStore::create(Upload upload) {
  std::lock_guard lock(mutex_);
  upload.sequence = ++next_sequence_;
  // Multiplying by an odd constant and xoring a secret are bijections: distinct sequences, distinct ids,
  // and no id is predictable from another, as S3's are not.
  std::uint64_t scrambled = (upload.sequence * 0x9E3779B97F4A7C15ULL) ^ id_seed_;
  upload.id = fmt::format("{:016x}{:016x}", scrambled, upload.sequence ^ ~id_seed_);
  std::string id = upload.id;
  uploads_.emplace(id, std::move(upload));
  return id;
}

std::optional<Upload> MultipartStore::find(const std::string& id, const std::string& bucket,
                                           const std::string& key, bool with_parts) const {
  std::lock_guard lock(mutex_);
  auto it = uploads_.find(id);
  if (it == uploads_.end() || it->second.bucket != bucket || it->second.key != key) return std::nullopt;
  return with_parts ? it->second : without_parts(it->second);
}

bool MultipartStore::put_part(const std::string& id, const std::string& bucket, const std::string& key,
                              int number, PartRecord part) {
  std::shared_ptr<const StoredPart> replaced;  // freed after the lock is released: unlinking takes time
  std::lock_guard lock(mutex_);
  auto it = uploads_.find(id);
  if (it == uploads_.end() || it->second.bucket != bucket || it->second.key != key) return false;
  PartRecord& slot = it->second.parts[number];
  replaced = std::move(slot.data);
  slot = std::move(part);
  return true;
}

bool MultipartStore::take_if(const std::string& id, const std::string& bucket, const std::string& key,
                             const std::function<std::optional<S3Error>(const Upload&)>& check,
                             std::optional<S3Error>& refusal, Upload& taken) {
  std::lock_guard lock(mutex_);
  auto it = uploads_.find(id);
  if (it == uploads_.end() || it->second.bucket != bucket || it->second.key != key) return false;
  refusal = check(it->second);
  if (refusal) return true;
  taken = std::move(it->second);
  uploads_.erase(it);
  return true;
}

bool MultipartStore::remove(const std::string& id, const std::string& bucket, const std::string& key) {
  Upload removed;  // its parts are freed after the lock is released
  std::lock_guard lock(mutex_);
  auto it = uploads_.find(id);
  if (it == uploads_.end() || it->second.bucket != bucket || it->second.key != key) return false;
  removed = std::move(it->second);
  uploads_.erase(it);
  return true;
}

std::vector<Upload> MultipartStore::list(const std::string& bucket) const {
  std::vector<Upload> listed;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, upload] : uploads_) {
      if (upload.bucket == bucket) listed.push_back(without_parts(upload));
    }
  }
  std::sort(listed.begin(), listed.end(), [](const Upload& a, const Upload& b) {
    return a.key != b.key ? a.key < b.key : a.sequence < b.sequence;
  });
  return listed;
}

std::size_t MultipartStore::count() const {
  std::lock_guard lock(mutex_);
  return uploads_.size();
}

}  // namespace s3up::mock
