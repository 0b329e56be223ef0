// multipart_xml.cpp: writes the CompleteMultipartUpload document and reads S3's multipart result documents,
// through the client's small XML reader.
#include "client/multipart_xml.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <system_error>
#include <utility>

#include "client/xml_reader.h"

namespace s3up {
namespace {

constexpr std::string_view s3_namespace = "http://s3.amazonaws.com/doc/2006-03-01/";

template <class Integer>
std::optional<Integer> parse_integer(std::string_view text) {
  Integer value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// The checksum element of `algorithm` among element's children, or of any algorithm when nullopt.
std::string checksum_child(const XmlElement& element, std::optional<ChecksumAlgorithm> algorithm) {
  if (algorithm) return std::string(element.child_text(xml_element_name(*algorithm)));
  for (const XmlElement& child : element.children) {
    if (child.name.starts_with("Checksum") && child.name != "ChecksumType" &&
        child.name != "ChecksumAlgorithm") {
      return child.text;
    }
  }
  return {};
}

}  // namespace

std::string complete_multipart_document(std::span<const CompletedPart> parts,
                                        std::optional<ChecksumAlgorithm> algorithm) {
  std::string xml = "<CompleteMultipartUpload xmlns=\"" + std::string(s3_namespace) + "\">";
  for (const CompletedPart& part : parts) {
    xml += "<Part><ETag>" + xml_escape(part.etag) + "</ETag>";
    if (algorithm) {
      const std::string_view element = xml_element_name(*algorithm);
      xml += "<" + std::string(element) + ">" + xml_escape(part.checksum) + "</" + std::string(element) + ">";
    }
    xml += "<PartNumber>" + std::to_string(part.part_number) + "</PartNumber></Part>";
  }
  xml += "</CompleteMultipartUpload>";
  return xml;
}

std::optional<std::string> parse_initiate_result(std::string_view xml) {
  auto root = parse_xml_document(xml);
  if (!root || root->name != "InitiateMultipartUploadResult") return std::nullopt;
  std::string_view id = root->child_text("UploadId");
  if (id.empty()) return std::nullopt;
  return std::string(id);
}

std::optional<CompleteMultipartUploadResult> parse_complete_result(
    std::string_view xml, std::optional<ChecksumAlgorithm> algorithm) {
  auto root = parse_xml_document(xml);
  if (!root || root->name != "CompleteMultipartUploadResult") return std::nullopt;
  CompleteMultipartUploadResult result;
  result.etag = std::string(root->child_text("ETag"));
  result.location = std::string(root->child_text("Location"));
  result.checksum = checksum_child(*root, algorithm);
  if (const XmlElement* type = root->child("ChecksumType")) {
    result.checksum_type = parse_checksum_type(type->text);
    if (!result.checksum_type) return std::nullopt;
  }
  return result;
}

std::optional<ListPartsPage> parse_list_parts_page(std::string_view xml,
                                                   std::optional<ChecksumAlgorithm> algorithm) {
  auto root = parse_xml_document(xml);
  if (!root || root->name != "ListPartsResult") return std::nullopt;
  ListPartsPage page;
  for (const XmlElement& element : root->children) {
    if (element.name != "Part") continue;
    auto number = parse_integer<int>(element.child_text("PartNumber"));
    auto size = parse_integer<std::uint64_t>(element.child_text("Size"));
    if (!number || !size) return std::nullopt;
    ListedPart part;
    part.part_number = *number;
    part.etag = std::string(element.child_text("ETag"));
    part.size = *size;
    part.checksum = checksum_child(element, algorithm);
    page.parts.push_back(std::move(part));
  }
  std::string_view truncated = root->child_text("IsTruncated");
  page.truncated = truncated == "true";
  if (page.truncated) {
    auto marker = parse_integer<int>(root->child_text("NextPartNumberMarker"));
    if (!marker) return std::nullopt;
    page.next_marker = *marker;
  }
  return page;
}

}  // namespace s3up
