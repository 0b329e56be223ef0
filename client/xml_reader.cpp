// xml_reader.cpp: a small, strict reader for the XML documents S3 answers, entity decoding and escaping.
// Not a general XML parser: no DTDs, no entity definitions, no mixed content that matters; what it accepts
// is what S3 sends, and what it refuses it refuses whole rather than guess.
#include "client/xml_reader.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3up {
namespace {

// S3's documents nest three or four levels (ListPartsResult > Part > ETag); a deeper one is not S3's.
constexpr std::size_t max_depth = 32;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

void skip_space(std::string_view text, std::size_t& at) {
  while (at < text.size() && is_space(text[at])) ++at;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x110000) {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The value of a character reference's digits ("#65", "#x41"), or nullopt.
std::optional<std::uint32_t> character_reference(std::string_view entity) {
  if (entity.size() < 2 || entity[0] != '#') return std::nullopt;
  const bool hex = entity[1] == 'x' || entity[1] == 'X';
  std::string_view digits = entity.substr(hex ? 2 : 1);
  if (digits.empty()) return std::nullopt;
  std::uint32_t cp = 0;
  for (char d : digits) {
    int v = -1;
    if (d >= '0' && d <= '9') v = d - '0';
    if (hex && d >= 'a' && d <= 'f') v = d - 'a' + 10;
    if (hex && d >= 'A' && d <= 'F') v = d - 'A' + 10;
    if (v < 0) return std::nullopt;
    cp = cp * (hex ? 16 : 10) + static_cast<std::uint32_t>(v);
  }
  return cp;
}

// The tag name starting at `at` (up to whitespace, '/', '>' or a '<' no name may hold), namespace prefix
// included.
std::string_view tag_name(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end < text.size() && !is_space(text[end]) && text[end] != '>' && text[end] != '/' &&
         text[end] != '<')
    ++end;
  return text.substr(at, end - at);
}

std::string local_name(std::string_view name) {
  std::size_t colon = name.find(':');
  return std::string(colon == std::string_view::npos ? name : name.substr(colon + 1));
}

// The '>' closing the start tag that begins at `at`, quoted attribute values skipped; npos if none.
std::size_t start_tag_end(std::string_view text, std::size_t at) {
  char quote = 0;
  for (std::size_t i = at; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i;
    }
  }
  return std::string_view::npos;
}

// Skips a comment or processing instruction at `at`; false if `at` starts neither or it is not closed.
bool skip_markup(std::string_view text, std::size_t& at) {
  std::string_view rest = text.substr(at);
  std::string_view close;
  if (rest.starts_with("<!--")) {
    close = "-->";
  } else if (rest.starts_with("<?")) {
    close = "?>";
  } else {
    return false;
  }
  std::size_t end = text.find(close, at + 2);
  if (end == std::string_view::npos) return false;
  at = end + close.size();
  return true;
}

}  // namespace

const XmlElement* XmlElement::child(std::string_view child_name) const {
  for (const XmlElement& element : children) {
    if (element.name == child_name) return &element;
  }
  return nullptr;
}

std::string_view XmlElement::child_text(std::string_view child_name) const {
  const XmlElement* element = child(child_name);
  return element != nullptr ? std::string_view(element->text) : std::string_view();
}

bool skip_xml_prolog(std::string_view text, std::size_t& at) {
  for (;;) {
    skip_space(text, at);
    std::string_view rest = text.substr(at);
    std::string_view close;
    if (rest.starts_with("<?")) {
      close = "?>";
    } else if (rest.starts_with("<!--")) {
      close = "-->";
    } else if (rest.starts_with("<!")) {
      close = ">";
    } else {
      return true;
    }
    std::size_t end = text.find(close, at + 2);
    if (end == std::string_view::npos) return false;
    at = end + close.size();
  }
}

std::string xml_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    if (text.substr(at).starts_with("<![CDATA[")) {
      std::size_t end = text.find("]]>", at + 9);
      if (end == std::string_view::npos) end = text.size();
      out.append(text.substr(at + 9, end - at - 9));
      at = end + 3;
      continue;
    }
    char c = text[at];
    std::size_t semi = c == '&' ? text.find(';', at) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - at > 10) {
      out.push_back(c);
      ++at;
      continue;
    }
    std::string_view entity = text.substr(at + 1, semi - at - 1);
    if (entity == "amp") {
      out.push_back('&');
    } else if (entity == "lt") {
      out.push_back('<');
    } else if (entity == "gt") {
      out.push_back('>');
    } else if (entity == "quot") {
      out.push_back('"');
    } else if (entity == "apos") {
      out.push_back('\'');
    } else if (auto cp = character_reference(entity)) {
      append_utf8(out, *cp);
    } else {
      out.append(text.substr(at, semi - at + 1));
    }
    at = semi + 1;
  }
  return out;
}

std::optional<XmlElement> parse_xml_document(std::string_view document) {
  std::size_t at = 0;
  if (!skip_xml_prolog(document, at)) return std::nullopt;
  if (at >= document.size() || document[at] != '<') return std::nullopt;

  // The open elements, innermost last; each is moved into its parent when its end tag arrives.
  std::vector<XmlElement> open;
  std::vector<std::string> open_tags;  // as written, prefix included, to match end tags exactly
  std::optional<XmlElement> root;
  while (at < document.size()) {
    if (document[at] != '<') {
      std::size_t next = document.find('<', at);
      if (next == std::string_view::npos) next = document.size();
      std::string_view data = document.substr(at, next - at);
      if (open.empty()) {
        // Only whitespace may follow the root.
        for (char c : data) {
          if (!is_space(c)) return std::nullopt;
        }
      } else {
        open.back().text += xml_unescape(data);
      }
      at = next;
      continue;
    }
    std::string_view rest = document.substr(at);
    if (rest.starts_with("<!--") || rest.starts_with("<?")) {
      if (!skip_markup(document, at)) return std::nullopt;
      continue;
    }
    if (rest.starts_with("<![CDATA[")) {
      std::size_t end = document.find("]]>", at + 9);
      if (open.empty() || end == std::string_view::npos) return std::nullopt;
      open.back().text.append(document.substr(at + 9, end - at - 9));
      at = end + 3;
      continue;
    }
    if (rest.starts_with("<!")) return std::nullopt;  // a doctype inside the document
    if (rest.starts_with("</")) {
      std::string_view name = tag_name(document, at + 2);
      std::size_t end = document.find('>', at + 2);
      if (open.empty() || end == std::string_view::npos || name != open_tags.back()) return std::nullopt;
      for (std::size_t i = at + 2 + name.size(); i < end; ++i) {
        if (!is_space(document[i])) return std::nullopt;
      }
      at = end + 1;
      XmlElement done = std::move(open.back());
      open.pop_back();
      open_tags.pop_back();
      if (open.empty()) {
        if (root) return std::nullopt;
        root = std::move(done);
      } else {
        open.back().children.push_back(std::move(done));
      }
      continue;
    }
    // A start tag.
    if (root) return std::nullopt;  // a second root
    std::string_view name = tag_name(document, at + 1);
    std::size_t end = start_tag_end(document, at + 1);
    // "<a<b>" is no start tag (found by fuzz/multipart_xml_fuzz.cpp).
    if (name.empty() || end == std::string_view::npos || document[at + 1 + name.size()] == '<')
      return std::nullopt;
    XmlElement element;
    element.name = local_name(name);
    at = end + 1;
    if (document[end - 1] == '/') {  // <Empty/>
      if (open.empty()) {
        root = std::move(element);
      } else {
        open.back().children.push_back(std::move(element));
      }
      continue;
    }
    if (open.size() >= max_depth) return std::nullopt;
    open.push_back(std::move(element));
    open_tags.emplace_back(name);
  }
  if (!open.empty()) return std::nullopt;  // cut short
  return root;
}

}  // namespace s3up
