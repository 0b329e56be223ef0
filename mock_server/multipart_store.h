// multipart_store.h: the multipart uploads in progress — each one's bucket, key, checksum settings and the
// parts received so far (their bytes stay in the ObjectStore) — from CreateMultipartUpload until it is
// completed or aborted. Safe to use from many connection threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "multipart_checksum.h"
#include "object_store.h"
#include "s3_error.h"
#include "s3up/checksum.h"

namespace s3up::mock {

struct PartRecord {
  std::uint64_t size = 0;
  std::string etag;    // quoted, as UploadPart answered it
  Digest etag_digest;  // the bytes the ETag is the hex of: the part's MD5 (or checksum, md5_etag off)
  ChecksumAlgorithm checksum_algorithm = ChecksumAlgorithm::crc64nvme;
  Digest checksum;  // the upload's algorithm; without one, what the part carried or CRC64NVME
  std::time_t last_modified = 0;
  std::shared_ptr<const StoredPart> data;
};

struct Upload {
  std::string id;
  std::string bucket;
  std::string key;
  UploadChecksum checksum;
  std::string content_type;
  std::time_t initiated = 0;
  std::uint64_t sequence = 0;       // creation order, which lists the uploads of one key
  std::map<int, PartRecord> parts;  // by part number; a part sent again replaces the earlier one
};

class MultipartStore {
 public:
  MultipartStore();

  // Registers a new upload and returns its id (unguessable, URL-safe, never reused).
  std::string create(Upload upload);
  // The upload `id` names, if it is one of this bucket and key; with its parts or without (cheaper).
  std::optional<Upload> find(const std::string& id, const std::string& bucket, const std::string& key,
                             bool with_parts) const;
  // Adds or replaces a part. False when the upload has gone meanwhile (completed or aborted).
  bool put_part(const std::string& id, const std::string& bucket, const std::string& key, int number,
                PartRecord part);
  // CompleteMultipartUpload: `check` looks at the upload under the lock; when it finds no error the upload
  // leaves the store into `taken`, so a part uploaded concurrently cannot slip in between. False: no such
  // upload. Otherwise `refusal` holds what check found (the upload then stays, as S3 leaves it).
  bool take_if(const std::string& id, const std::string& bucket, const std::string& key,
               const std::function<std::optional<S3Error>(const Upload&)>& check,
               std::optional<S3Error>& refusal, Upload& taken);
  // AbortMultipartUpload: drops the upload and its parts. False: no such upload.
  bool remove(const std::string& id, const std::string& bucket, const std::string& key);
  // The bucket's uploads without their parts, by key and then by creation.
  std::vector<Upload> list(const std::string& bucket) const;
  std::size_t count() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, Upload> uploads_;  // by id
  std::uint64_t next_sequence_ = 0;
  std::uint64_t id_seed_;
};

}  // namespace s3up::mock
