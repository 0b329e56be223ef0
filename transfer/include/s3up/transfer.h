// s3up/transfer.h: the transfer module. It owns upload(): one call that sends an object of any size, by one
// PutObject below a threshold and by a multipart upload of parallel parts above it, in memory that does not
// grow with the object: file and memory sources are split into zero-copy ranges (BodySource::range), other
// sources are read into a bounded pool of reused part buffers (concurrency x part_size bytes).
//
// Parallelism is a small pool of threads, each with its own Client (its own curl handle and connection): the
// checksum and signing work of each part runs on its own core, which one curl multi handle on one thread
// could not give. Each part is retried on its own by its Client; an upload that finally fails is aborted,
// so no orphaned parts remain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "s3up/body.h"
#include "s3up/checksum.h"
#include "s3up/client.h"

namespace s3up {

inline constexpr std::uint64_t default_multipart_threshold = 16ULL << 20;
inline constexpr std::uint64_t default_part_size = 8ULL << 20;
inline constexpr std::uint64_t min_part_size = 5ULL << 20;  // S3's minimum for every part but the last
inline constexpr int max_part_count = 10'000;
inline constexpr int default_concurrency = 4;
inline constexpr std::size_t default_part_upload_buffer_size = 128 * 1024;

struct UploadProgress {
  std::uint64_t bytes_sent = 0;                // object bytes confirmed or in flight; never goes backwards
  std::optional<std::uint64_t> total_bytes{};  // nullopt for a source of unknown length
};

struct UploadOptions {
  // Objects of at least this many bytes (or of unknown length that turn out to reach it) go multipart.
  std::uint64_t multipart_threshold = default_multipart_threshold;
  // Raised automatically so that a known size needs at most max_part_count parts; at least min_part_size.
  std::uint64_t part_size = default_part_size;
  // The smallest part_size accepted: S3's min_part_size. Lower it only for a server that takes smaller parts
  // (the mock server's ServerOptions::min_part_size, in tests).
  std::uint64_t part_size_floor = min_part_size;
  int concurrency = default_concurrency;  // parts in flight at once, >= 1
  // curl's upload buffer of each part in flight, in place of ClientConfig::upload_buffer_size (which a
  // single PutObject uses): concurrency of them are held at once. 128 KiB: with 4 in flight it takes ~10% off
  // the time and CPU of curl's 64 KiB, 256 KiB little more, and `s3up cp` stays under 16 MB (put_bench's
  // part-buffer sweep). Within curl's 16 KiB to 2 MiB.
  std::size_t part_upload_buffer_size = default_part_upload_buffer_size;
  // Checksum algorithm, location, payload signing and content type of the PutObject or of every part.
  PutObjectOptions put{};
  // Multipart only. nullopt: FULL_OBJECT for CRCs, COMPOSITE for SHA1/SHA256 (see ChecksumType).
  std::optional<ChecksumType> checksum_type{};
  // Called from the uploading threads, serialized, at most every few hundred KiB of progress.
  std::function<void(const UploadProgress&)> progress{};
  // request_stop() on its source (from any thread, a signal watcher's say) ends the upload soon with
  // Error::Kind::cancelled: the requests in flight stop at curl's next callback, and a multipart upload is
  // aborted.
  std::stop_token cancel{};
};

struct UploadResult {
  std::string etag{};
  std::uint64_t bytes = 0;
  int parts = 0;  // 0: sent by one PutObject
  std::optional<ChecksumAlgorithm> checksum_algorithm{};
  std::optional<ChecksumType> checksum_type{};  // FULL_OBJECT for a single PutObject with a checksum
  std::string checksum{};                       // as S3 answered it ("<base64>-<parts>" for COMPOSITE)
  ChecksumLocation checksum_location = ChecksumLocation::none;  // where it travelled (the parts')
  int attempts = 0;                                             // requests sent in all, retries included
};

// Uploads body to bucket/key. config is copied into every worker's Client. Fails with the first part's
// error that survived its retries (after aborting the upload), or invalid_argument before any request for
// options S3 would refuse (unsupported algorithm/type pair, part_size too small or too large).
Result<UploadResult> upload(const ClientConfig& config, std::string_view bucket, std::string_view key,
                            BodySource& body, const UploadOptions& options = {});

}  // namespace s3up
