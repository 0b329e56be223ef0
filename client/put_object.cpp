// put_object.cpp: PutObject in one request, and the streamed PUT it shares with UploadPart (put_body). Plans
// where the checksum travels, picks the payload mode and its encoder (raw body, unsigned trailer, signed
// chunks with or without a trailer), pre-reads the body when a header needs its digest, then per attempt
// signs, streams, and checks that the answer confirms the body (every byte sent, an ETag, no stray body, the
// checksum echoed as sent).
#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/client_impl.h"
#include "client/error.h"
#include "client/progress_source.h"
#include "client/s3_error.h"
#include "client/validation.h"
#include "s3up/client.h"

namespace s3up {
namespace {

// The pre-read needs a second pass; a one-way source can still go with its checksum in a trailer.
Error preread_error(const BodyError& cause) {
  Error error = body_error(cause);
  if (cause.kind() == BodyError::Kind::not_rewindable && error.message.find("trailer") == std::string::npos) {
    error.message +=
        " (a checksum header or Content-MD5 needs a pre-read and a rewind; send the checksum in an "
        "aws-chunked trailer instead: checksum location trailer)";
  }
  return error;
}

// Whatever a source throws that is not a BodyError (a CallbackSource's callback may throw anything) is a
// failed read: it must end the upload as a body error, never escape put_object.
Error foreign_exception(const std::exception* error) {
  return body_error(BodyError(BodyError::Kind::read_failed,
                              error != nullptr ? std::string("the body source threw: ") + error->what()
                                               : "the body source threw an unknown exception"));
}

// Everything about the PUT that stays the same from one attempt to the next, decided once.
struct PutPlan {
  ChecksumPlan checksum;
  std::uint64_t size = 0;
  bool signed_payload = false;
  bool trailer = false;      // the checksum travels in an aws-chunked trailer
  bool aws_chunked = false;  // the body is aws-chunked (a trailer, or signed chunks without one)
  std::size_t chunk_size = default_chunk_size;
  std::vector<sigv4::Header> headers;  // the request's own headers; the signer adds date, hash and token
  std::string payload_hash;            // x-amz-content-sha256
  std::string header_checksum;         // base64, when the checksum travels in a header
};

// The encoder of one attempt, made from scratch: a fresh checksum, and for signed chunks a fresh chain seeded
// with this attempt's own signature. Never carried over from an earlier attempt.
struct AttemptEncoder {
  std::unique_ptr<BodyEncoder> encoder;
  const std::optional<Digest>* trailer_checksum = nullptr;  // the encoder's, once the trailer is produced
};

AttemptEncoder make_encoder(const PutPlan& plan, const SignedOutgoingRequest& request, BodySource& body) {
  AttemptEncoder out;
  if (plan.aws_chunked && plan.signed_payload) {
    sigv4::ChunkSigner signer(request.signing_key, request.amz_date, request.scope, request.seed_signature);
    auto chunked = std::make_unique<SignedChunkEncoder>(
        body, std::move(signer), plan.trailer ? make_checksum(*plan.checksum.algorithm) : nullptr,
        plan.chunk_size);
    out.trailer_checksum = &chunked->trailer_checksum();
    out.encoder = std::move(chunked);
  } else if (plan.aws_chunked) {
    auto chunked =
        std::make_unique<TrailerEncoder>(body, make_checksum(*plan.checksum.algorithm), plan.chunk_size);
    out.trailer_checksum = &chunked->trailer_checksum();
    out.encoder = std::move(chunked);
  } else {
    out.encoder = std::make_unique<RawBodyEncoder>(body);
  }
  return out;
}

bool only_whitespace(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// A 2xx is only a success if it confirms the object. Every byte must have been produced and gone out (never
// report a truncated body as uploaded, even when a server answers before reading all of it). S3 answers
// PutObject with an ETag and an empty body: a body that is an <Error> document is a failure dressed as a 2xx,
// anything else in it, or no ETag, is not an answer to this request (a proxy's page, a garbled reply).
std::optional<Error> check_confirmation(const HttpResponse& response, std::uint64_t declared) {
  if (response.upload_bytes != declared || response.sent_bytes != declared) {
    return body_error(BodyError(BodyError::Kind::ended_early,
                                "the server answered " + std::to_string(response.status) + " after " +
                                    std::to_string(std::min(response.upload_bytes, response.sent_bytes)) +
                                    " of " + std::to_string(declared) + " body bytes"));
  }
  if (!only_whitespace(response.body)) {
    if (parse_s3_error(response.body)) return service_error(response);
    Error error = make_error(Error::Kind::protocol, "UnexpectedResponseBody",
                             "the server answered " + std::to_string(response.status) + " with a " +
                                 std::to_string(response.body_bytes) +
                                 "-byte body that is no PutObject answer (S3 sends none)");
    error.http_status = response.status;
    error.request_id = std::string(response.header("x-amz-request-id"));
    return error;
  }
  if (response.header("etag").empty()) {
    Error error = make_error(Error::Kind::protocol, "MissingETag",
                             "the server answered " + std::to_string(response.status) +
                                 " without the ETag that confirms a stored object");
    error.http_status = response.status;
    error.request_id = std::string(response.header("x-amz-request-id"));
    return error;
  }
  return std::nullopt;
}

// What one attempt's answer means: the result, or why it is not one.
Result<PutObjectResult> put_result(const HttpResponse& response, const AttemptEncoder& encoder,
                                   const PutPlan& plan, const std::string& payload_hash, int attempt) {
  if (!response.successful()) return service_error(response);
  if (auto error = check_confirmation(response, encoder.encoder->encoded_length())) return *error;

  std::string checksum_sent = plan.header_checksum;
  if (plan.trailer) {
    if (encoder.trailer_checksum == nullptr || !encoder.trailer_checksum->has_value()) {
      return body_error(BodyError(BodyError::Kind::ended_early, "the checksum trailer was never produced"));
    }
    checksum_sent = (*encoder.trailer_checksum)->base64();
  }

  PutObjectResult result;
  result.http_status = response.status;
  result.etag = std::string(response.header("etag"));
  result.request_id = std::string(response.header("x-amz-request-id"));
  result.bytes = plan.size;
  result.checksum_algorithm = plan.checksum.algorithm;
  result.checksum_location = plan.checksum.location;
  result.payload_mode = payload_hash;
  result.checksum_sent = std::move(checksum_sent);
  result.attempts = attempt;
  if (plan.checksum.algorithm) {
    result.checksum_returned = std::string(response.header(header_name(*plan.checksum.algorithm)));
    if (!result.checksum_returned.empty() && result.checksum_returned != result.checksum_sent) {
      return checksum_mismatch_error(
          response, "the server stored " + std::string(algorithm_name(*plan.checksum.algorithm)) + " " +
                        result.checksum_returned + " but " + result.checksum_sent + " was sent");
    }
  }
  return result;
}

}  // namespace

Result<PutObjectResult> Client::put_object(std::string_view bucket, std::string_view key, BodySource& body,
                                           const PutObjectOptions& options) {
  Impl& impl = *impl_;
  if (auto error = impl.check_ready()) return *error;
  if (auto error = validate_bucket(bucket)) return *error;
  if (auto error = validate_key(key)) return *error;
  if (auto error = validate_header_value("content_type", options.content_type)) return *error;
  StreamedPut put;
  put.target = impl.target(bucket, key);
  put.operation = "PUT s3://" + std::string(bucket) + "/" + std::string(key);
  put.algorithm = options.checksum_algorithm ? options.checksum_algorithm : impl.config.checksum_algorithm;
  put.location = options.checksum_location.value_or(impl.config.checksum_location);
  put.signed_payload = options.signed_payload;
  put.content_md5 = options.content_md5;
  put.content_type = options.content_type;
  if (options.progress) put.progress = &options.progress;
  return impl.put_body(put, body);
}

Result<PutObjectResult> Client::Impl::put_body(const StreamedPut& put, BodySource& source) {
  if (put.algorithm == ChecksumAlgorithm::md5) {
    return make_error(Error::Kind::invalid_argument, "InvalidArgument",
                      "MD5 is not an S3 checksum algorithm; use PutObjectOptions::content_md5");
  }
  std::optional<std::uint64_t> size = source.size();
  if (!size) {
    return body_error(
        BodyError(BodyError::Kind::unknown_length, "a PUT needs a body of known size (upload() takes any)"));
  }
  // Before the pre-read, which may read gigabytes: a cancel() already made stops the call here.
  if (cancel_signal.cancelled()) return cancelled_error();

  PutPlan plan;
  plan.size = *size;
  plan.chunk_size = config.chunk_size;
  plan.signed_payload = put.signed_payload;
  // What the provider accepts decides the checksum, where it travels and the payload mode; an explicit choice
  // it refuses ends the call here, before anything is read or sent.
  UploadRequest request{.algorithm = put.algorithm,
                        .location = put.location,
                        .calculation = *config.checksum_calculation,
                        .signed_payload = put.signed_payload,
                        .https = endpoint.https,
                        .endpoint_accepts_trailers = config.endpoint_accepts_trailers,
                        .body_size = *size,
                        .chunk_size = config.chunk_size,
                        .part_without_checksum = put.part_without_checksum};
  auto choice = choose_upload(*profile, request);
  if (!choice) return choice.error();
  plan.checksum = choice->checksum;

  // Payload modes (reference §1): an aws-chunked body for a trailer, or for a signed payload that has no
  // checksum header to pre-read for (signed chunks need no second pass) where the provider takes signed
  // streaming; the raw body otherwise, its SHA-256 pre-read when the payload is signed.
  plan.trailer = plan.checksum.location == ChecksumLocation::trailer;
  plan.aws_chunked = choice->aws_chunked;
  const bool header = plan.checksum.location == ChecksumLocation::header;
  const bool content_md5 = put.content_md5 || choice->content_md5;
  const bool signed_raw = plan.signed_payload && !plan.aws_chunked;

  // The pre-read runs once, not per attempt: it needs a rewindable source, and a rewound source yields the
  // same bytes again, so its digests hold for every attempt. Were the bytes to change between passes, the
  // server's own check of the header checksum (BadDigest) would refuse the upload; nothing is stored wrong.
  PrereadDigests digests;
  if (header || content_md5 || signed_raw) {
    try {
      digests = preread_buffer().run(source, header ? plan.checksum.algorithm : std::nullopt, signed_raw,
                                     content_md5);
    } catch (const BodyError& error) {
      return preread_error(error);
    } catch (const std::exception& error) {
      return foreign_exception(&error);
    } catch (...) {
      return foreign_exception(nullptr);
    }
  }

  if (plan.aws_chunked) {
    plan.payload_hash =
        std::string(plan.signed_payload ? (plan.trailer ? sigv4::streaming_signed_payload_trailer
                                                        : sigv4::streaming_signed_payload)
                                        : sigv4::streaming_unsigned_payload_trailer);
    plan.headers.push_back({"content-encoding", "aws-chunked"});
    plan.headers.push_back({"x-amz-decoded-content-length", std::to_string(*size)});
    if (plan.trailer) {
      plan.headers.push_back({"x-amz-trailer", std::string(header_name(*plan.checksum.algorithm))});
    }
  } else {
    plan.payload_hash = plan.signed_payload && digests.payload_sha256 ? digests.payload_sha256->hex()
                                                                      : std::string(sigv4::unsigned_payload);
    if (header) {
      plan.header_checksum = digests.checksum->base64();
      plan.headers.push_back({std::string(header_name(*plan.checksum.algorithm)), plan.header_checksum});
    }
  }
  // Whichever way the checksum travels, the SDKs name its algorithm too, where the provider takes the header.
  if ((plan.trailer || header) && choice->sdk_checksum_header) {
    plan.headers.push_back(
        {"x-amz-sdk-checksum-algorithm", std::string(algorithm_name(*plan.checksum.algorithm))});
  }
  if (content_md5) plan.headers.push_back({"content-md5", digests.content_md5->base64()});
  if (!put.content_type.empty()) plan.headers.push_back({"content-type", put.content_type});

  logger->debug("{}: {} bytes, provider {}, checksum {} in {}, content-md5 {}", put.operation, *size,
                to_string(profile->provider),
                plan.checksum.algorithm ? algorithm_name(*plan.checksum.algorithm) : "none",
                to_string(plan.checksum.location), content_md5 ? "yes" : "no");
  // The bytes the encoder takes are counted for the progress callback; the pre-read above is not sending.
  std::optional<ProgressSource> counted;
  BodySource& body = put.progress != nullptr ? counted.emplace(source, *put.progress) : source;
  return with_retries<PutObjectResult>(put.operation, &body, [&](int attempt) -> Result<PutObjectResult> {
    // Signed per attempt: a new x-amz-date, so a new seed signature for the chunk chain.
    SignedOutgoingRequest request = sign("PUT", put.target, plan.headers, plan.payload_hash);
    AttemptEncoder encoder;
    try {
      encoder = make_encoder(plan, request, body);
    } catch (const BodyError& error) {
      return body_error(error);
    }
    auto response = exchange(request, encoder.encoder.get(), nullptr);
    if (!response) return response.error();
    return put_result(response.value(), encoder, plan, request.payload_hash, attempt);
  });
}

}  // namespace s3up
