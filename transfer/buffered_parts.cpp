// buffered_parts.cpp: uploads from a body that cannot be cut into ranges (a pipe, stdin, a callback): read
// part by part into the bounded pool of reused buffers (concurrency x part_size bytes in all), each buffer
// uploaded while the next is read. With no size known up front the last part is whatever remains, and the
// first buffers read decide between one PutObject and a multipart upload.
#include <array>
#include <exception>
#include <string>
#include <vector>

#include "client/error.h"
#include "transfer/part_buffer_pool.h"
#include "transfer/span_chain_source.h"
#include "transfer/uploader.h"

namespace s3up {
namespace {

// Reads into buffer until it is full or the body ends; the bytes read.
Result<std::size_t> fill(BodySource& body, std::span<std::byte> buffer) {
  std::size_t filled = 0;
  try {
    while (filled < buffer.size()) {
      std::size_t n = body.read(buffer.subspan(filled));
      if (n == 0) break;
      filled += n;
    }
  } catch (const BodyError& error) {
    return body_error(error);
  } catch (const std::exception& error) {
    return body_error(
        BodyError(BodyError::Kind::read_failed, std::string("the body source threw: ") + error.what()));
  } catch (...) {
    return body_error(BodyError(BodyError::Kind::read_failed, "the body source threw an unknown exception"));
  }
  return filled;
}

// Whether the body has bytes left (reading one if so: only asked when no byte may remain).
Result<bool> has_more(BodySource& body) {
  std::array<std::byte, 1> probe{};
  auto n = fill(body, probe);
  if (!n) return n.error();
  return n.value() != 0;
}

Error body_failure(BodyError::Kind kind, std::string message) {
  return body_error(BodyError(kind, std::move(message)));
}

}  // namespace

Result<UploadResult> Uploader::upload_buffered(BodySource& body, std::optional<std::uint64_t> size) {
  // A known size has its plan; a stream of unknown length goes at the asked part size, up to S3's last part.
  const bool known = size.has_value();
  const PartPlan plan = known ? plan_parts(*size, options_.part_size)
                              : PartPlan{.part_size = options_.part_size,
                                         .part_count = max_part_count,
                                         .last_part_size = options_.part_size};
  const std::uint64_t part_size = plan.part_size;
  const auto buffers = static_cast<std::size_t>(threads_for(static_cast<std::uint64_t>(plan.part_count)));
  PartBufferPool pool(buffers, static_cast<std::size_t>(part_size));

  // Unknown length: read whole buffers until the threshold is reached, the body ends, or every buffer is
  // full (a threshold above concurrency x part_size cannot be waited for: multipart then).
  std::vector<PartJob> first;
  std::uint64_t total = 0;
  bool ended = false;
  if (!size) {
    do {
      std::span<std::byte> buffer = pool.acquire();
      auto n = fill(body, buffer);
      if (!n) return n.error();
      if (n.value() == 0) {
        pool.release(buffer);
        ended = true;
        break;
      }
      first.push_back({.number = static_cast<int>(first.size()) + 1, .length = n.value(), .buffer = buffer});
      total += n.value();
      ended = n.value() < buffer.size();
    } while (!ended && total < options_.multipart_threshold && first.size() < buffers);

    if (ended && (total < options_.multipart_threshold || total == 0)) {
      // A short stream: one PutObject from the buffers it was read into, as they are.
      std::vector<std::span<const std::byte>> spans;
      for (const PartJob& part : first) spans.emplace_back(part.buffer.first(part.length));
      SpanChainSource whole(std::move(spans));
      progress_.emplace(options_.progress, total);
      return put_whole(whole);
    }
  }

  auto created = create();
  if (!created) return created.error();
  const MultipartUpload& upload = created.value();
  // Declared after the pool: the workers give their buffers back to it until they are joined.
  PartWorkers workers(part_config_, static_cast<int>(buffers), upload, part_options_, nullptr, &pool,
                      *progress_);
  CancelScope scope(*this, workers);
  for (const PartJob& part : first) workers.submit(part);

  const int last = plan.part_count;
  for (int number = static_cast<int>(first.size()) + 1; !ended; ++number) {
    if (number > last) {
      // Every part is sent: the body must be over.
      auto more = has_more(body);
      if (!more) {
        workers.fail(more.error());
      } else if (more.value()) {
        workers.fail(
            known ? body_failure(
                        BodyError::Kind::longer_than_declared,
                        "the body source has more than its declared " + std::to_string(*size) + " bytes")
                  : make_error(Error::Kind::invalid_argument, "InvalidArgument",
                               "the stream is longer than " + std::to_string(max_part_count) + " parts of " +
                                   std::to_string(part_size) + " bytes, S3's limit; use a larger part size"));
      }
      break;
    }
    std::span<std::byte> buffer = pool.acquire();
    if (buffer.empty()) break;  // a part failed: the pool is closed
    const std::uint64_t want = plan.length(number);
    auto n = fill(body, buffer.first(static_cast<std::size_t>(want)));
    if (!n) {
      pool.release(buffer);
      workers.fail(n.error());
      break;
    }
    if (known && n.value() < want) {
      pool.release(buffer);
      workers.fail(body_failure(BodyError::Kind::ended_early,
                                "the body source ended after " + std::to_string(total + n.value()) +
                                    " of its " + std::to_string(*size) + " declared bytes"));
      break;
    }
    if (n.value() == 0) {  // the previous part, a full one, was the last
      pool.release(buffer);
      break;
    }
    total += n.value();
    if (!workers.submit({.number = number, .length = n.value(), .buffer = buffer})) break;
    ended = !known && n.value() < want;  // a short read: the stream is over
  }
  return finish(upload, workers, total);
}

}  // namespace s3up
