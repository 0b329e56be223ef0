// client/xml_reader.h: the XML the client reads and writes: a small reader for the documents S3 answers
// (shallow trees of elements holding text), entity decoding, and the escaping of text written into a
// request document.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3up {

// One element: its local name (a namespace prefix dropped; attributes such as xmlns are skipped), the
// character data directly inside it, entities decoded, and its child elements in document order.
struct XmlElement {
  std::string name;
  std::string text;
  std::vector<XmlElement> children;

  const XmlElement* child(std::string_view child_name) const;      // the first of that name, or null
  std::string_view child_text(std::string_view child_name) const;  // "" when there is none
};

// The root element of a well-formed document (a prolog, comments and processing instructions allowed
// around it); nullopt for anything else: unbalanced or unclosed tags, text outside the root, or nesting
// deeper than S3's documents ever go.
std::optional<XmlElement> parse_xml_document(std::string_view document);

// Skips the prolog: the XML declaration, processing instructions, comments, a doctype and whitespace.
// Returns false when the text ends inside one of them.
bool skip_xml_prolog(std::string_view text, std::size_t& at);

// Replaces the five predefined entities and character references; CDATA sections are copied as they are.
// Anything unrecognised is kept literally rather than dropped, so no text is lost.
std::string xml_unescape(std::string_view text);

}  // namespace s3up
