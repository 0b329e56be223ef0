// fuzz/multipart_xml_fuzz.cpp: libFuzzer target for the client's XML reader and the multipart result
// documents read with it (InitiateMultipartUploadResult, CompleteMultipartUploadResult, ListPartsResult): any
// input must parse or be refused without a crash, a hang or a leak; and escaping any text for the
// CompleteMultipartUpload document must read back as that text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "client/multipart_xml.h"
#include "client/xml_reader.h"
#include "s3up/checksum.h"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "multipart XML: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  if (auto root = s3up::parse_xml_document(input)) {
    if (root->name.find('<') != std::string::npos) fail("an element name holds '<'");
  }
  (void)s3up::parse_initiate_result(input);
  (void)s3up::parse_complete_result(input, std::nullopt);
  (void)s3up::parse_complete_result(input, s3up::ChecksumAlgorithm::crc64nvme);
  (void)s3up::parse_list_parts_page(input, s3up::ChecksumAlgorithm::sha256);

  // Escaped text inside an element reads back exactly, whatever it holds.
  const std::string document = "<ETag>" + s3up::xml_escape(input) + "</ETag>";
  auto element = s3up::parse_xml_document(document);
  if (!element) fail("an escaped text made the document unreadable");
  if (element->text != input) fail("escaped text did not read back as itself");
  return 0;
}
