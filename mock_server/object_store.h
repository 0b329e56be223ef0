// object_store.h: where verified objects live. A PutObject streams into an ObjectWriter (the object's final
// buffer, or a staging file) and becomes visible only at commit_put(), so a failed request stores nothing;
// the parts of multipart uploads wait in the store until they are linked into an object.
// Two backends: memory, and a data directory on disk. Both are safe to use from many connection threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "page_memory.h"
#include "s3up/mock_server.h"
#include "unique_fd.h"

namespace s3up::mock {

// A byte buffer that never zero-fills: the body is received straight into it. Large buffers are page
// mappings from the store's PagePool (see page_memory.h), handed back to it when the object goes away.
class ObjectBuffer {
 public:
  explicit ObjectBuffer(std::shared_ptr<PagePool> pool) : pool_(std::move(pool)) {}
  ~ObjectBuffer();
  ObjectBuffer(const ObjectBuffer&) = delete;
  ObjectBuffer& operator=(const ObjectBuffer&) = delete;

  // For an object of known size: allocates exactly that once, and the buffer never moves again (writing
  // past it is a bug: std::length_error). Without it, prepare() grows the buffer geometrically.
  void reserve_exact(std::size_t size);
  std::span<std::byte> prepare(std::size_t want);  // at least 1 and at most `want` writable bytes (want > 0)
  void commit(std::size_t n) { size_ += n; }
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  // The whole buffer, written or not: the announced size after reserve_exact().
  std::span<const std::byte> reserved() const { return {data_, capacity_}; }

 private:
  void reallocate(std::size_t capacity);

  std::shared_ptr<PagePool> pool_;
  std::unique_ptr<std::byte[]> heap_;  // small buffers
  PageMemory pages_;                   // large buffers
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  bool exact_ = false;
};

class ObjectWriter {
 public:
  virtual ~ObjectWriter() = default;  // an uncommitted writer discards what it holds
  virtual std::span<std::byte> prepare(std::size_t want) = 0;
  virtual void commit(std::size_t n) = 0;
  void append(std::span<const std::byte> data);
  // Where the object's bytes land, in order, when that is one buffer of the announced size that they stay
  // in until the writer is gone (so another thread may read them behind the writer); empty otherwise.
  virtual std::span<const std::byte> fixed_buffer() const { return {}; }
};

// What a GET sends: the bytes in memory (one buffer, or a multipart object's parts in order), or an open
// file.
struct ObjectContent {
  StoredObject meta;
  std::vector<std::shared_ptr<const ObjectBuffer>> memory;
  UniqueFd file;
};

// A part of a multipart upload, kept by the store apart from every object until CompleteMultipartUpload
// links parts into one (commit_multipart) or the upload goes away; the last reference frees it (memory) or
// deletes its file (disk).
class StoredPart {
 public:
  virtual ~StoredPart() = default;
};

enum class DeleteBucketResult { deleted, missing, not_empty };

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  virtual bool has_bucket(const std::string& bucket) const = 0;
  virtual bool create_bucket(const std::string& bucket) = 0;  // false if it already existed
  virtual DeleteBucketResult delete_bucket(const std::string& bucket) = 0;

  // size: the object's size when the request announced it (Content-Length, x-amz-decoded-content-length),
  // so the final buffer is allocated once; the body is never longer.
  virtual std::unique_ptr<ObjectWriter> begin_put(const std::string& bucket, const std::string& key,
                                                  std::optional<std::uint64_t> size) = 0;
  // Publishes the object (creating its bucket if needed). False on a storage failure (disk full...).
  virtual bool commit_put(std::unique_ptr<ObjectWriter> writer, const StoredObject& meta) = 0;

  // Multipart uploads: a part streams into a writer from begin_part() exactly like an object, keep_part()
  // keeps it (nullptr on a storage failure), and commit_multipart() publishes parts, in order, as one
  // object. The memory store links the parts' buffers without copying; the disk store concatenates files.
  virtual std::unique_ptr<ObjectWriter> begin_part(std::optional<std::uint64_t> size) = 0;
  virtual std::shared_ptr<const StoredPart> keep_part(std::unique_ptr<ObjectWriter> writer) = 0;
  virtual bool commit_multipart(const std::string& bucket, const std::string& key,
                                std::span<const std::shared_ptr<const StoredPart>> parts,
                                const StoredObject& meta) = 0;

  virtual std::optional<StoredObject> head(const std::string& bucket, const std::string& key) const = 0;
  virtual std::optional<ObjectContent> get(const std::string& bucket, const std::string& key) const = 0;
  virtual bool remove(const std::string& bucket, const std::string& key) = 0;  // false if it was absent
  virtual std::size_t object_count() const = 0;
};

std::unique_ptr<ObjectStore> make_memory_store();
// Throws std::runtime_error if the directory cannot be created or used.
std::unique_ptr<ObjectStore> make_disk_store(const std::string& data_dir);

}  // namespace s3up::mock
