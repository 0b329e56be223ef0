// progress_source.cpp: counts the body bytes of a streamed PUT for its progress callback.
#include "client/progress_source.h"

namespace s3up {

std::size_t ProgressSource::read(std::span<std::byte> dest) {
  const std::size_t n = body_.read(dest);
  if (n != 0) {
    sent_ += n;
    progress_(sent_);
  }
  return n;
}

void ProgressSource::rewind() {
  body_.rewind();
  sent_ = 0;
  progress_(0);
}

}  // namespace s3up
