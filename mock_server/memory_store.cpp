// memory_store.cpp: the in-memory ObjectStore. Objects are immutable shared buffers, so a GET streams one
// without holding the lock while a PUT of the same key replaces it; freed buffers go back to a PagePool. A
// multipart object is the list of its parts' buffers: completing an upload copies no byte.
#include <map>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "object_store.h"

namespace s3up::mock {

namespace {

// What the pool may keep of freed object buffers: enough for repeated uploads of a 1 GiB object to reuse
// their memory, little next to the machine.
constexpr std::size_t page_pool_budget = std::size_t{2} << 30;

class MemoryWriter final : public ObjectWriter {
 public:
  MemoryWriter(std::string bucket, std::string key, std::optional<std::uint64_t> size,
               std::shared_ptr<PagePool> pool)
      : bucket_(std::move(bucket)),
        key_(std::move(key)),
        buffer_(std::make_shared<ObjectBuffer>(std::move(pool))),
        fixed_(size.has_value()) {
    if (size) buffer_->reserve_exact(static_cast<std::size_t>(*size));
  }
  std::span<std::byte> prepare(std::size_t want) override { return buffer_->prepare(want); }
  void commit(std::size_t n) override { buffer_->commit(n); }
  std::span<const std::byte> fixed_buffer() const override {
    return fixed_ ? buffer_->reserved() : std::span<const std::byte>();
  }

  std::string bucket_;
  std::string key_;
  std::shared_ptr<ObjectBuffer> buffer_;
  bool fixed_;
};

class MemoryPart final : public StoredPart {
 public:
  explicit MemoryPart(std::shared_ptr<const ObjectBuffer> buffer) : buffer_(std::move(buffer)) {}
  std::shared_ptr<const ObjectBuffer> buffer_;
};

class MemoryStore final : public ObjectStore {
 public:
  bool has_bucket(const std::string& bucket) const override {
    std::shared_lock lock(mutex_);
    return buckets_.contains(bucket);
  }

  bool create_bucket(const std::string& bucket) override {
    std::unique_lock lock(mutex_);
    return buckets_.try_emplace(bucket).second;
  }

  DeleteBucketResult delete_bucket(const std::string& bucket) override {
    std::unique_lock lock(mutex_);
    auto it = buckets_.find(bucket);
    if (it == buckets_.end()) return DeleteBucketResult::missing;
    if (!it->second.empty()) return DeleteBucketResult::not_empty;
    buckets_.erase(it);
    return DeleteBucketResult::deleted;
  }

  std::unique_ptr<ObjectWriter> begin_put(const std::string& bucket, const std::string& key,
                                          std::optional<std::uint64_t> size) override {
    return std::make_unique<MemoryWriter>(bucket, key, size, pool_);
  }

  bool commit_put(std::unique_ptr<ObjectWriter> writer, const StoredObject& meta) override {
    auto& memory = static_cast<MemoryWriter&>(*writer);
    std::unique_lock lock(mutex_);
    buckets_[memory.bucket_][memory.key_] = Entry{meta, {std::move(memory.buffer_)}};
    return true;
  }

  std::unique_ptr<ObjectWriter> begin_part(std::optional<std::uint64_t> size) override {
    return std::make_unique<MemoryWriter>(std::string(), std::string(), size, pool_);
  }

  std::shared_ptr<const StoredPart> keep_part(std::unique_ptr<ObjectWriter> writer) override {
    return std::make_shared<MemoryPart>(std::move(static_cast<MemoryWriter&>(*writer).buffer_));
  }

  bool commit_multipart(const std::string& bucket, const std::string& key,
                        std::span<const std::shared_ptr<const StoredPart>> parts,
                        const StoredObject& meta) override {
    Entry entry{meta, {}};
    entry.data.reserve(parts.size());
    for (const auto& part : parts) entry.data.push_back(static_cast<const MemoryPart&>(*part).buffer_);
    std::unique_lock lock(mutex_);
    buckets_[bucket][key] = std::move(entry);
    return true;
  }

  std::optional<StoredObject> head(const std::string& bucket, const std::string& key) const override {
    std::shared_lock lock(mutex_);
    const Entry* entry = find(bucket, key);
    if (!entry) return std::nullopt;
    return entry->meta;
  }

  std::optional<ObjectContent> get(const std::string& bucket, const std::string& key) const override {
    std::shared_lock lock(mutex_);
    const Entry* entry = find(bucket, key);
    if (!entry) return std::nullopt;
    ObjectContent content;
    content.meta = entry->meta;
    content.memory = entry->data;
    return content;
  }

  bool remove(const std::string& bucket, const std::string& key) override {
    std::unique_lock lock(mutex_);
    auto it = buckets_.find(bucket);
    return it != buckets_.end() && it->second.erase(key) > 0;
  }

  std::size_t object_count() const override {
    std::shared_lock lock(mutex_);
    std::size_t count = 0;
    for (const auto& [name, objects] : buckets_) count += objects.size();
    return count;
  }

 private:
  struct Entry {
    StoredObject meta;
    std::vector<std::shared_ptr<const ObjectBuffer>> data;  // one buffer, or the parts in order
  };
  using Bucket = std::map<std::string, Entry>;

  const Entry* find(const std::string& bucket, const std::string& key) const {
    auto b = buckets_.find(bucket);
    if (b == buckets_.end()) return nullptr;
    auto o = b->second.find(key);
    return o == b->second.end() ? nullptr : &o->second;
  }

  // Shared with every buffer, so that none can outlive it.
  std::shared_ptr<PagePool> pool_ = std::make_shared<PagePool>(page_pool_budget);
  mutable std::shared_mutex mutex_;
  std::map<std::string, Bucket> buckets_;
};

}  // namespace

std::unique_ptr<ObjectStore> make_memory_store() {
  return std::make_unique<MemoryStore>();
}

}  // namespace s3up::mock
