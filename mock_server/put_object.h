// put_object.h: receiving a PutObject body — raw, or aws-chunked decoded on the fly — into the object's final
// buffer while hashing it, then verifying every chunk signature, the trailer signature, the decoded length,
// x-amz-content-sha256, the x-amz-checksum-* value and Content-MD5.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include "http_body.h"
#include "put_request.h"
#include "request_auth.h"
#include "s3_error.h"

namespace s3up::mock {

class ObjectWriter;

// scratch: a reusable buffer for aws-chunked input. On success `object` describes what `writer` holds.
std::optional<S3Error> receive_put_object(const PutPlan& plan, const VerifiedAuth& auth, RequestBody& body,
                                          ObjectWriter& writer, std::span<std::byte> scratch,
                                          StoredObject& object);

// The size of the object a PutObject or UploadPart body holds, as announced (x-amz-decoded-content-length,
// or Content-Length) so that its buffer is allocated once; nullopt when HTTP chunked framing announces none.
// MissingContentLength without any framing, EntityTooLarge past plan.max_size.
std::optional<S3Error> announced_size(const PutPlan& plan, const RequestBody& body,
                                      std::optional<std::uint64_t>& size);

// The S3 error for a body that ended badly: short of Content-Length, cut off by a silent client, or broken
// HTTP chunked framing.
S3Error body_read_error(const RequestBody& body, RequestBody::Status status);

}  // namespace s3up::mock
