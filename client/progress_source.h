// client/progress_source.h: the body as a streamed PUT sends it, counted for PutObjectOptions::progress: the
// bytes the encoder has taken from the source in this attempt (into curl's upload buffer, so at most that
// buffer ahead of the socket), reported after each read and back at 0 when a retry rewinds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "s3up/body.h"
#include "s3up/client.h"

namespace s3up {

class ProgressSource final : public BodySource {
 public:
  // progress must be callable; both must outlive this object.
  ProgressSource(BodySource& body, const ProgressFunction& progress) : body_(body), progress_(progress) {}

  std::size_t read(std::span<std::byte> dest) override;
  std::optional<std::uint64_t> size() const override { return body_.size(); }
  bool can_rewind() const override { return body_.can_rewind(); }
  void rewind() override;

 private:
  BodySource& body_;
  const ProgressFunction& progress_;
  std::uint64_t sent_ = 0;
};

}  // namespace s3up
