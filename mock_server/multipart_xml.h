// multipart_xml.h: the XML of the multipart operations — the CompleteMultipartUpload document a client
// sends (reference §6.5), parsed strictly, and a writer for the result documents the server answers.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "s3_error.h"

namespace s3up::mock {

// One <Part> of a CompleteMultipartUpload document, as written (entities decoded).
struct CompletedPart {
  std::int64_t number = 0;  // <PartNumber>, saturated to the int64 range; checked by the caller
  std::string etag;         // <ETag>, quotes as sent
  std::vector<std::pair<std::string, std::string>> checksums;  // ("ChecksumCRC32", "m+Pgow=="), ...
};

// MalformedXML unless `xml` is a CompleteMultipartUpload document with at least one Part, each with one
// integer PartNumber and one ETag.
std::optional<S3Error> parse_complete_document(std::string_view xml, std::vector<CompletedPart>& parts);

// A result document: the XML declaration, then <root xmlns="http://s3.amazonaws.com/doc/2006-03-01/">.
class XmlWriter {
 public:
  explicit XmlWriter(std::string_view root);
  void element(std::string_view name, std::string_view text);  // <name>escaped text</name>
  void open(std::string_view name);
  void close(std::string_view name);
  std::string finish();  // closes the root

 private:
  std::string root_;
  std::string out_;
};

// "2026-11-30T12:34:56.000Z", as S3 writes LastModified and Initiated.
std::string iso8601(std::time_t when);

}  // namespace s3up::mock
