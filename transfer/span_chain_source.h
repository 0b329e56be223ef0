// transfer/span_chain_source.h: a body source over several byte spans read one after another: the part
// buffers a short stream was read into, sent by one PutObject without being copied together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "s3up/body.h"

namespace s3up {

class SpanChainSource final : public BodySource {
 public:
  explicit SpanChainSource(std::vector<std::span<const std::byte>> spans);

  std::size_t read(std::span<std::byte> dest) override;
  std::optional<std::uint64_t> size() const override { return size_; }
  bool can_rewind() const override { return true; }
  void rewind() override;

 private:
  std::vector<std::span<const std::byte>> spans_;
  std::uint64_t size_ = 0;
  std::size_t span_ = 0;      // the span being read
  std::size_t position_ = 0;  // within it
};

}  // namespace s3up
