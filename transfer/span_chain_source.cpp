// span_chain_source.cpp: reads a list of spans as one body.
#include "transfer/span_chain_source.h"

#include <algorithm>
#include <utility>

namespace s3up {

SpanChainSource::SpanChainSource(std::vector<std::span<const std::byte>> spans) : spans_(std::move(spans)) {
  for (const auto& span : spans_) size_ += span.size();
}

std::size_t SpanChainSource::read(std::span<std::byte> dest) {
  std::size_t written = 0;
  while (written < dest.size() && span_ < spans_.size()) {
    std::span<const std::byte> rest = spans_[span_].subspan(position_);
    std::size_t n = std::min(rest.size(), dest.size() - written);
    std::copy_n(rest.begin(), n, dest.begin() + static_cast<std::ptrdiff_t>(written));
    written += n;
    position_ += n;
    if (position_ == spans_[span_].size()) {
      ++span_;
      position_ = 0;
    }
  }
  return written;
}

void SpanChainSource::rewind() {
  span_ = 0;
  position_ = 0;
}

}  // namespace s3up
