// put_object.cpp: the PutObject body pipeline: read -> (aws-chunked decode) -> object buffer + digests ->
// verify.
#include "put_object.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <array>
#include <memory>

#include "aws_chunked_decoder.h"
#include "emulation.h"
#include "etag_md5.h"
#include "http_body.h"
#include "http_request.h"
#include "object_store.h"
#include "s3up/sigv4.h"

namespace s3up::mock {

namespace {

constexpr std::size_t max_raw_read = 1 << 20;

// Every digest of the decoded object, fed once per block while the block is still in cache; the ETag's MD5
// may instead trail on its own thread through the writer's fixed buffer (etag_md5.h).
class ObjectDigests {
 public:
  ObjectDigests(const PutPlan& plan, const ObjectWriter& writer)
      : checksum_(make_checksum(plan.checksum.algorithm.value_or(plan.default_checksum))) {
    if (plan.mode == PayloadMode::signed_payload) payload_sha256_ = std::make_unique<Sha256>();
    if (plan.md5_etag || plan.checksum.content_md5) md5_.emplace(writer.fixed_buffer());
  }
  // data: the object's next bytes, already in the writer's buffer.
  void update(std::span<const std::byte> data) {
    checksum_->update(data);
    if (payload_sha256_) payload_sha256_->update(data);
    if (md5_) md5_->update(data);
    size_ += data.size();
  }

  std::unique_ptr<Checksum> checksum_;
  std::unique_ptr<Sha256> payload_sha256_;
  std::optional<EtagMd5> md5_;
  std::uint64_t size_ = 0;
};

S3Error signature_error(std::string_view what) {
  return s3_error(
      403, "SignatureDoesNotMatch",
      std::string("The ") + std::string(what) +
          " signature we calculated does not match the signature you provided. Check your key and "
          "signing method.");
}

bool same_signature(const sigv4::Signature& expected, std::string_view provided) {
  return provided.size() == expected.size() &&
         CRYPTO_memcmp(provided.data(), expected.data(), expected.size()) == 0;
}

// Gives meaning to what the aws-chunked decoder finds: chunk signatures, trailers, the decoded length.
class PayloadSink final : public AwsChunkedSink {
 public:
  PayloadSink(const PutPlan& plan, const VerifiedAuth& auth, ObjectWriter& writer, ObjectDigests& digests)
      : plan_(plan), writer_(writer), digests_(digests) {
    if (has_chunk_signatures(plan.mode))
      signer_.emplace(auth.signing_key, auth.amz_date, auth.scope, auth.seed_signature);
  }

  std::optional<S3Error> on_chunk_header(std::uint64_t size, std::string_view signature) override {
    if (plan_.max_chunk_size != 0 && size > plan_.max_chunk_size) return chunk_too_big_error();
    // Refuse more data than announced at once rather than buffer it.
    if (size > plan_.decoded_length - std::min(decoded_, plan_.decoded_length)) {
      return decoded_length_error(plan_.decoded_length, decoded_ + size);
    }
    if (signer_) {
      std::copy(signature.begin(), signature.end(), chunk_signature_.begin());
      chunk_sha256_.reset();
    }
    return std::nullopt;
  }

  void on_chunk_data(std::span<const std::byte> data) override {
    writer_.append(data);
    digests_.update(data);
    if (signer_) chunk_sha256_.update(data);
    decoded_ += data.size();
  }

  std::optional<S3Error> on_chunk_end() override {
    if (!signer_) return std::nullopt;
    sigv4::Signature expected = signer_->sign_chunk(chunk_sha256_.finish());
    if (!same_signature(expected, std::string_view(chunk_signature_.data(), chunk_signature_.size()))) {
      return signature_error("chunk");
    }
    return std::nullopt;
  }

  std::optional<S3Error> on_trailer(std::string_view name, std::string_view value) override {
    if (plan_.mode == PayloadMode::streaming_signed) return malformed_trailer_error();
    if (ascii_iequals(name, sigv4::trailer_signature_name)) {
      if (plan_.mode != PayloadMode::streaming_signed_trailer || trailer_signature_)
        return malformed_trailer_error();
      trailer_signature_ = std::string(value);
      return std::nullopt;
    }
    // The checksum trailer: the one x-amz-trailer declared, once, before the trailer signature.
    if (trailer_signature_ || trailer_value_ || plan_.checksum.trailer_name.empty() ||
        !ascii_iequals(name, plan_.checksum.trailer_name)) {
      return malformed_trailer_error();
    }
    auto digest = base64_decode_digest(value);
    if (!digest || digest->size() != digest_size(*plan_.checksum.algorithm)) {
      return s3_error(400, "InvalidRequest",
                      "Value for " + plan_.checksum.trailer_name + " trailing header is invalid.");
    }
    trailer_value_ = digest;
    trailer_text_ = std::string(value);
    return std::nullopt;
  }

  std::optional<S3Error> on_end() override {
    if (!plan_.checksum.trailer_name.empty() && !trailer_value_) return body_terminated_error();
    if (plan_.mode == PayloadMode::streaming_signed_trailer) {
      if (!trailer_signature_) return body_terminated_error();
      // Canonical trailer text (§3.4): "name:value\n" per trailer, lowercase names, signature line excluded.
      std::string canonical;
      if (trailer_value_) canonical = plan_.checksum.trailer_name + ":" + trailer_text_ + "\n";
      if (!same_signature(signer_->sign_trailer(canonical), *trailer_signature_))
        return signature_error("trailer");
    }
    if (decoded_ != plan_.decoded_length) return decoded_length_error(plan_.decoded_length, decoded_);
    return std::nullopt;
  }

  const std::optional<Digest>& trailer_value() const { return trailer_value_; }

 private:
  const PutPlan& plan_;
  ObjectWriter& writer_;
  ObjectDigests& digests_;
  std::optional<sigv4::ChunkSigner> signer_;
  Sha256 chunk_sha256_;
  std::array<char, 64> chunk_signature_{};
  std::uint64_t decoded_ = 0;
  std::optional<Digest> trailer_value_;
  std::string trailer_text_;
  std::optional<std::string> trailer_signature_;
};

std::optional<S3Error> receive_raw(const PutPlan& plan, RequestBody& body, ObjectWriter& writer,
                                   ObjectDigests& digests) {
  while (!body.complete()) {
    // Read straight into the object's final buffer; hash the block while it is hot in cache. An HTTP chunked
    // body announced no size: one byte past the limit is enough to refuse it.
    std::uint64_t room = plan.max_size - std::min(digests.size_, plan.max_size);
    auto space = writer.prepare(static_cast<std::size_t>(std::min<std::uint64_t>(max_raw_read, room + 1)));
    auto result = body.read(space);
    if (result.size > room) return entity_too_large_error(digests.size_ + result.size, plan.max_size);
    if (result.size > 0) {
      writer.commit(result.size);
      digests.update(space.first(result.size));
    } else if (result.status != RequestBody::Status::end) {
      return body_read_error(body, result.status);
    }
  }
  return std::nullopt;
}

std::optional<S3Error> receive_aws_chunked(const PutPlan& plan, const VerifiedAuth& auth, RequestBody& body,
                                           ObjectWriter& writer, std::span<std::byte> scratch,
                                           ObjectDigests& digests, std::optional<Digest>& trailer_value) {
  PayloadSink sink(plan, auth, writer, digests);
  AwsChunkedDecoder decoder(has_chunk_signatures(plan.mode), sink);
  for (;;) {
    auto result = body.read(scratch);
    if (result.size > 0) {
      if (auto error = decoder.feed(scratch.first(result.size))) return error;
      continue;
    }
    if (result.status != RequestBody::Status::end) {
      return body_read_error(body, result.status);
    }
    break;
  }
  if (!decoder.finished()) return body_terminated_error();
  trailer_value = sink.trailer_value();
  return std::nullopt;
}

std::optional<S3Error> verify_digests(const PutPlan& plan, ObjectDigests& digests,
                                      const std::optional<Digest>& trailer_value, StoredObject& object) {
  if (digests.payload_sha256_) {
    std::string computed = digests.payload_sha256_->finish().hex();
    if (computed != plan.payload_sha256) return content_sha256_mismatch_error(plan.payload_sha256, computed);
  }
  Digest computed = digests.checksum_->finish();
  if (plan.checksum.algorithm) {
    const auto& sent = plan.checksum.header_value ? plan.checksum.header_value : trailer_value;
    if (!sent || !(computed == *sent)) {
      return s3_error(400, "BadDigest",
                      "The " + std::string(algorithm_name(*plan.checksum.algorithm)) +
                          " you specified did not match the calculated checksum.");
    }
  }
  object.checksum.emplace(std::string(header_name(digests.checksum_->algorithm())), computed.base64());
  object.checksum_type = "FULL_OBJECT";  // a single PUT's checksum always covers the whole object
  std::optional<Digest> md5;
  if (digests.md5_) md5 = digests.md5_->finish();
  if (plan.checksum.content_md5 && !(*md5 == *plan.checksum.content_md5)) {
    S3Error error =
        s3_error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.");
    error.details.emplace_back("ExpectedDigest", plan.checksum.content_md5_text);
    error.details.emplace_back("CalculatedDigest", md5->base64());
    return error;
  }
  object.size = digests.size_;
  // Without the MD5 (ServerOptions::md5_etag off) the ETag is the stored checksum in hex: as opaque to
  // clients as S3's SSE-KMS ETags, and still different for different content.
  const Digest& etag_digest = plan.md5_etag ? *md5 : computed;
  // Built in a fixed buffer: string concatenation here trips a GCC 12 -Wrestrict false positive at -O2.
  std::array<char, 2 + 2 * max_digest_size> etag{};
  std::size_t hex_size = 2 * etag_digest.size();
  etag.front() = '"';
  etag_digest.hex_to(std::span(etag).subspan(1, hex_size));
  etag[hex_size + 1] = '"';
  object.etag.assign(etag.data(), hex_size + 2);
  object.content_type = plan.content_type;
  return std::nullopt;
}

}  // namespace

S3Error body_read_error(const RequestBody& body, RequestBody::Status status) {
  if (status == RequestBody::Status::timed_out) return request_timeout_error();
  if (status == RequestBody::Status::truncated && body.framing() == RequestBody::Framing::length) {
    return content_length_error(body.content_length(), body.received());
  }
  return body_terminated_error();
}

std::optional<S3Error> announced_size(const PutPlan& plan, const RequestBody& body,
                                      std::optional<std::uint64_t>& size) {
  size.reset();
  if (body.framing() == RequestBody::Framing::none) {
    return s3_error(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  }
  if (is_streaming(plan.mode)) {
    size = plan.decoded_length;  // plan_put_object checked it against the limit
  } else if (body.framing() == RequestBody::Framing::length) {
    if (body.content_length() > plan.max_size)
      return entity_too_large_error(body.content_length(), plan.max_size);
    size = body.content_length();
  }
  return std::nullopt;
}

std::optional<S3Error> receive_put_object(const PutPlan& plan, const VerifiedAuth& auth, RequestBody& body,
                                          ObjectWriter& writer, std::span<std::byte> scratch,
                                          StoredObject& object) {
  ObjectDigests digests(plan, writer);
  std::optional<Digest> trailer_value;
  std::optional<S3Error> error =
      is_streaming(plan.mode) ? receive_aws_chunked(plan, auth, body, writer, scratch, digests, trailer_value)
                              : receive_raw(plan, body, writer, digests);
  if (error) return error;
  return verify_digests(plan, digests, trailer_value, object);
}

}  // namespace s3up::mock
