// multipart_checksum.cpp: multipart checksum settings and the object-level checksum and ETag of parts.
#include "multipart_checksum.h"

#include "http_request.h"

namespace s3up::mock {

namespace {

S3Error invalid_request(std::string_view message) {
  return s3_error(400, "InvalidRequest", message);
}

std::string lowercase_name(std::optional<ChecksumAlgorithm> algorithm) {
  return algorithm ? ascii_lowercase(algorithm_name(*algorithm)) : std::string("null");
}

bool is_crc(ChecksumAlgorithm algorithm) {
  return algorithm == ChecksumAlgorithm::crc32 || algorithm == ChecksumAlgorithm::crc32c ||
         algorithm == ChecksumAlgorithm::crc64nvme;
}

}  // namespace

std::string_view checksum_type_name(ChecksumType type) {
  return type == ChecksumType::composite ? "COMPOSITE" : "FULL_OBJECT";
}

std::optional<S3Error> parse_upload_checksum(const HttpRequest& request, UploadChecksum& checksum) {
  auto algorithm_text = request.value("x-amz-checksum-algorithm");
  auto type_text = request.value("x-amz-checksum-type");
  checksum = UploadChecksum{};
  if (!algorithm_text) {
    if (type_text)
      return invalid_request(
          "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.");
    return std::nullopt;
  }
  auto algorithm = parse_algorithm(trim_http_whitespace(*algorithm_text));
  if (!algorithm || *algorithm == ChecksumAlgorithm::md5) {
    return invalid_request(
        "Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, "
        "CRC32C, CRC64NVME, SHA1, SHA256]");
  }
  checksum.algorithm = algorithm;
  // aws-c-s3 sends the type in lower case (reference §6.1): compare without case, as S3 evidently does.
  if (!type_text) {
    checksum.type =
        *algorithm == ChecksumAlgorithm::crc64nvme ? ChecksumType::full_object : ChecksumType::composite;
  } else if (ascii_iequals(trim_http_whitespace(*type_text), "COMPOSITE")) {
    checksum.type = ChecksumType::composite;
  } else if (ascii_iequals(trim_http_whitespace(*type_text), "FULL_OBJECT")) {
    checksum.type = ChecksumType::full_object;
  } else {
    return invalid_request("Value for x-amz-checksum-type header is invalid.");
  }
  // §6.1: SHA digests do not combine into a whole-object value; CRC64NVME is only ever FULL_OBJECT.
  bool allowed = checksum.type == ChecksumType::full_object ? is_crc(*algorithm)
                                                            : *algorithm != ChecksumAlgorithm::crc64nvme;
  if (!allowed) {
    return invalid_request("The " + std::string(checksum_type_name(checksum.type)) +
                           " checksum type cannot be used with the " + lowercase_name(algorithm) +
                           " checksum algorithm.");
  }
  return std::nullopt;
}

S3Error checksum_type_mismatch(std::optional<ChecksumAlgorithm> expected,
                               std::optional<ChecksumAlgorithm> actual) {
  return invalid_request("Checksum Type mismatch occurred, expected checksum Type: " +
                         lowercase_name(expected) + ", actual checksum Type: " + lowercase_name(actual));
}

std::optional<Digest> object_checksum(ChecksumAlgorithm algorithm, ChecksumType type,
                                      std::span<const PartDigests> parts) {
  for (const PartDigests& part : parts) {
    if (part.checksum.size() != digest_size(algorithm)) return std::nullopt;
  }
  if (type == ChecksumType::composite) {
    auto checksum = make_checksum(algorithm);
    for (const PartDigests& part : parts) checksum->update(part.checksum.bytes());
    return checksum->finish();
  }
  // The CRC of nothing is all zero bytes: the start of the fold, and the value of an upload of empty parts.
  std::optional<Digest> combined = compute_checksum(algorithm, std::string_view());
  for (const PartDigests& part : parts) {
    combined = combine_crc(algorithm, *combined, part.checksum, part.size);
    if (!combined) return std::nullopt;
  }
  return combined;
}

std::string object_checksum_text(const Digest& checksum, ChecksumType type, std::size_t part_count) {
  std::string text = checksum.base64();
  if (type == ChecksumType::composite) text += "-" + std::to_string(part_count);
  return text;
}

std::string multipart_etag(std::span<const PartDigests> parts) {
  Md5 md5;
  for (const PartDigests& part : parts) md5.update(part.etag.bytes());
  return "\"" + md5.finish().hex() + "-" + std::to_string(parts.size()) + "\"";
}

}  // namespace s3up::mock
