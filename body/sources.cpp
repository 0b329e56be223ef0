// body/sources.cpp: the in-memory, std::istream and callback body sources (FileSource is in file_source.cpp).
#include <algorithm>
#include <memory>
#include <string>

#include "s3up/body.h"

namespace s3up {

// ---- MemorySource

std::size_t MemorySource::read(std::span<std::byte> dest) {
  std::size_t n = std::min(dest.size(), data_.size() - position_);
  std::copy_n(data_.begin() + static_cast<std::ptrdiff_t>(position_), n, dest.begin());
  position_ += n;
  return n;
}

std::unique_ptr<BodySource> MemorySource::range(std::uint64_t offset, std::uint64_t length) const {
  if (offset > data_.size() || length > data_.size() - offset) {
    throw BodyError(BodyError::Kind::invalid_argument,
                    "range of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                        " goes beyond the end of a " + std::to_string(data_.size()) + "-byte memory body");
  }
  return std::make_unique<MemorySource>(data_.subspan(offset, length));
}

// ---- StreamSource

StreamSource::StreamSource(std::istream& stream, std::optional<std::uint64_t> size)
    : stream_(stream), size_(size) {
  // tellg() is -1 for pipes and terminals: such a stream reads once and cannot be rewound.
  std::istream::pos_type start = stream_.tellg();
  if (start == std::istream::pos_type(-1)) {
    stream_.clear();
    return;
  }
  start_ = start;
  if (size_) return;
  stream_.seekg(0, std::ios::end);
  std::istream::pos_type end = stream_.tellg();
  stream_.clear();
  stream_.seekg(start);
  if (end != std::istream::pos_type(-1) && end >= start && !stream_.fail()) {
    size_ = static_cast<std::uint64_t>(end - start);
  } else {
    // Seeking to the end failed after all: treat the stream as one-pass with an unknown size.
    stream_.clear();
    start_.reset();
  }
}

std::size_t StreamSource::read(std::span<std::byte> dest) {
  if (dest.empty() || stream_.eof()) return 0;
  stream_.read(reinterpret_cast<char*>(dest.data()), static_cast<std::streamsize>(dest.size()));
  if (stream_.bad()) throw BodyError(BodyError::Kind::read_failed, "reading the body stream failed");
  // A short read sets eofbit and failbit together; that is the normal end, not an error.
  return static_cast<std::size_t>(stream_.gcount());
}

void StreamSource::rewind() {
  if (!start_) {
    throw BodyError(BodyError::Kind::not_rewindable, "the body stream is not seekable and cannot be rewound");
  }
  stream_.clear();
  stream_.seekg(*start_);
  if (stream_.fail()) throw BodyError(BodyError::Kind::read_failed, "seeking back in the body stream failed");
}

// ---- CallbackSource

CallbackSource::CallbackSource(ReadFunction read, std::optional<std::uint64_t> size, RewindFunction rewind)
    : read_(std::move(read)), size_(size), rewind_(std::move(rewind)) {
  if (!read_)
    throw BodyError(BodyError::Kind::invalid_argument, "a callback body source needs a read function");
}

std::size_t CallbackSource::read(std::span<std::byte> dest) {
  std::ptrdiff_t n = read_(dest);
  if (n < 0) {
    throw BodyError(BodyError::Kind::read_failed,
                    "the body read callback reported error " + std::to_string(n));
  }
  if (static_cast<std::size_t>(n) > dest.size()) {
    throw BodyError(BodyError::Kind::read_failed, "the body read callback returned " + std::to_string(n) +
                                                      " bytes for a " + std::to_string(dest.size()) +
                                                      "-byte buffer");
  }
  return static_cast<std::size_t>(n);
}

void CallbackSource::rewind() {
  if (!rewind_) {
    throw BodyError(BodyError::Kind::not_rewindable, "the body read callback has no rewind function");
  }
  if (!rewind_()) throw BodyError(BodyError::Kind::not_rewindable, "the body rewind callback failed");
}

}  // namespace s3up
