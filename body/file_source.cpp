// body/file_source.cpp: FileSource, a file or a byte range of one, read with pread at offset + position so
// that several sources (multipart parts) can share one descriptor.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "s3up/body.h"

namespace s3up {

namespace {

std::string errno_text(int error) {
  return std::strerror(error);
}

// Closes a descriptor the constructor opened unless the constructor completes and takes it over.
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  ~FdGuard() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// The length of [offset, offset + length) after checking it lies inside the file.
std::uint64_t checked_range(int fd, std::uint64_t offset, std::optional<std::uint64_t> length,
                            const std::string& name) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    throw BodyError(BodyError::Kind::read_failed, "cannot stat " + name + ": " + errno_text(errno));
  }
  // Only a regular file has a size known up front; pread on a pipe or a directory cannot work.
  if (!S_ISREG(info.st_mode)) {
    throw BodyError(BodyError::Kind::invalid_argument, name + " is not a regular file");
  }
  auto file_size = static_cast<std::uint64_t>(info.st_size);
  if (offset > file_size) {
    throw BodyError(BodyError::Kind::invalid_argument, "offset " + std::to_string(offset) +
                                                           " is beyond the end of " + name + " (" +
                                                           std::to_string(file_size) + " bytes)");
  }
  if (!length) return file_size - offset;
  if (*length > file_size - offset) {
    throw BodyError(BodyError::Kind::invalid_argument,
                    "range of " + std::to_string(*length) + " bytes at offset " + std::to_string(offset) +
                        " goes beyond the end of " + name + " (" + std::to_string(file_size) + " bytes)");
  }
  return *length;
}

}  // namespace

FileSource::FileSource(const std::filesystem::path& path, std::uint64_t offset,
                       std::optional<std::uint64_t> length)
    : offset_(offset), name_(path.string()) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw BodyError(BodyError::Kind::read_failed, "cannot open " + name_ + ": " + errno_text(errno));
  FdGuard guard(fd);
  length_ = checked_range(fd, offset, length, name_);
  fd_ = guard.release();
  owns_fd_ = true;
}

FileSource::FileSource(int fd, std::uint64_t offset, std::optional<std::uint64_t> length)
    : fd_(fd), offset_(offset), name_("file descriptor " + std::to_string(fd)) {
  length_ = checked_range(fd, offset, length, name_);
}

FileSource::~FileSource() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

FileSource::FileSource(FileSource&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      owns_fd_(std::exchange(other.owns_fd_, false)),
      offset_(other.offset_),
      length_(other.length_),
      position_(other.position_),
      name_(std::move(other.name_)) {}

std::unique_ptr<BodySource> FileSource::range(std::uint64_t offset, std::uint64_t length) const {
  if (offset > length_ || length > length_ - offset) {
    throw BodyError(BodyError::Kind::invalid_argument,
                    "range of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                        " goes beyond the end of " + name_ + " (" + std::to_string(length_) + " bytes)");
  }
  // The fd constructor checks the range against the file as it is now; the part borrows the descriptor, so
  // parts read in parallel share it through pread and never move a file position.
  auto part = std::make_unique<FileSource>(fd_, offset_ + offset, length);
  part->name_ = name_;
  return part;
}

std::size_t FileSource::read(std::span<std::byte> dest) {
  if (position_ >= length_) return 0;
  std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(dest.size(), length_ - position_));
  ssize_t n;
  do {
    n = ::pread(fd_, dest.data(), want, static_cast<off_t>(offset_ + position_));
  } while (n < 0 && errno == EINTR);
  if (n < 0) throw BodyError(BodyError::Kind::read_failed, "cannot read " + name_ + ": " + errno_text(errno));
  // n == 0 before length_ means the file shrank; the encoder reports that as ended_early.
  position_ += static_cast<std::uint64_t>(n);
  return static_cast<std::size_t>(n);
}

}  // namespace s3up
