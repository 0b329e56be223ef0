// multipart_xml.cpp: a small strict XML reader for the CompleteMultipartUpload document (elements,
// attributes skipped, text with the predefined and numeric entities, CDATA, comments) and the result writer.
#include "multipart_xml.h"

#include <cstddef>
#include <limits>

#include "s3up/checksum.h"

namespace s3up::mock {

namespace {

// The document is three elements deep; anything much deeper is not one, and the recursion stays bounded.
constexpr int max_depth = 8;

S3Error malformed_xml() {
  return s3_error(
      400, "MalformedXML",
      "The XML you provided was not well-formed or did not validate against our published schema");
}

bool is_xml_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim_xml_space(std::string_view text) {
  while (!text.empty() && is_xml_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_xml_space(text.back())) text.remove_suffix(1);
  return text;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// "#34", "#x22": a character reference's code point, or nullopt.
std::optional<std::uint32_t> character_reference(std::string_view entity) {
  if (entity.size() < 2 || entity.front() != '#') return std::nullopt;
  entity.remove_prefix(1);
  unsigned base = 10;
  if (entity.front() == 'x') {
    base = 16;
    entity.remove_prefix(1);
  }
  if (entity.empty() || entity.size() > 8) return std::nullopt;
  std::uint32_t code = 0;
  for (char c : entity) {
    unsigned digit = c >= '0' && c <= '9'                 ? static_cast<unsigned>(c - '0')
                     : base == 16 && c >= 'a' && c <= 'f' ? static_cast<unsigned>(c - 'a' + 10)
                     : base == 16 && c >= 'A' && c <= 'F' ? static_cast<unsigned>(c - 'A' + 10)
                                                          : 99;
    if (digit >= base) return std::nullopt;
    code = code * base + digit;
  }
  if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
  return code;
}

// Character data with its entity references replaced; false on an undefined or unterminated one.
bool decode_text(std::string_view raw, std::string& out) {
  while (!raw.empty()) {
    std::size_t amp = raw.find('&');
    out.append(raw.substr(0, amp));
    if (amp == std::string_view::npos) return true;
    raw.remove_prefix(amp);
    std::size_t semicolon = raw.find(';');
    if (semicolon == std::string_view::npos) return false;
    std::string_view entity = raw.substr(1, semicolon - 1);
    if (entity == "quot") {
      out += '"';
    } else if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "apos") {
      out += '\'';
    } else if (auto code = character_reference(entity)) {
      append_utf8(out, *code);
    } else {
      return false;
    }
    raw.remove_prefix(semicolon + 1);
  }
  return true;
}

struct XmlNode {
  std::string name;
  std::string text;  // the character data directly inside, decoded
  std::vector<XmlNode> children;
};

class XmlReader {
 public:
  explicit XmlReader(std::string_view in) : in_(in) {}

  bool document(XmlNode& root) {
    if (in_.starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark
    skip_space();
    if (starts("<?xml") && !skip_past("?>")) return false;
    return skip_misc() && element(root, 0) && skip_misc() && pos_ == in_.size();
  }

 private:
  bool starts(std::string_view text) const { return in_.substr(pos_).starts_with(text); }
  bool skip_past(std::string_view text) {
    std::size_t at = in_.find(text, pos_);
    if (at == std::string_view::npos) return false;
    pos_ = at + text.size();
    return true;
  }
  void skip_space() {
    while (pos_ < in_.size() && is_xml_space(in_[pos_])) ++pos_;
  }
  // Whitespace and comments around the root element.
  bool skip_misc() {
    for (;;) {
      skip_space();
      if (!starts("<!--")) return true;
      if (!skip_past("-->")) return false;
    }
  }
  bool name(std::string& out) {
    std::size_t start = pos_;
    while (pos_ < in_.size()) {
      char c = in_[pos_];
      bool name_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-' || c == '.' || c == ':';
      if (!name_char) break;
      ++pos_;
    }
    out.assign(in_.substr(start, pos_ - start));
    return !out.empty();
  }

  bool element(XmlNode& node, int depth) {
    if (depth > max_depth || !starts("<")) return false;
    ++pos_;
    if (!name(node.name)) return false;
    for (;;) {  // attributes, such as the root's xmlns, are read past: none carries meaning here
      skip_space();
      if (starts("/>")) {
        pos_ += 2;
        return true;
      }
      if (starts(">")) {
        ++pos_;
        break;
      }
      std::string attribute;
      if (!name(attribute)) return false;
      skip_space();
      if (!starts("=")) return false;
      ++pos_;
      skip_space();
      if (pos_ >= in_.size() || (in_[pos_] != '"' && in_[pos_] != '\'')) return false;
      std::size_t end = in_.find(in_[pos_], pos_ + 1);
      if (end == std::string_view::npos) return false;
      pos_ = end + 1;
    }
    for (;;) {
      if (pos_ >= in_.size()) return false;
      if (starts("</")) {
        pos_ += 2;
        std::string closing;
        if (!name(closing) || closing != node.name) return false;
        skip_space();
        if (!starts(">")) return false;
        ++pos_;
        return true;
      }
      if (starts("<!--")) {
        if (!skip_past("-->")) return false;
      } else if (starts("<![CDATA[")) {
        pos_ += 9;
        std::size_t end = in_.find("]]>", pos_);
        if (end == std::string_view::npos) return false;
        node.text.append(in_.substr(pos_, end - pos_));
        pos_ = end + 3;
      } else if (starts("<")) {
        node.children.emplace_back();
        if (!element(node.children.back(), depth + 1)) return false;
      } else {
        std::size_t end = in_.find('<', pos_);
        if (end == std::string_view::npos || !decode_text(in_.substr(pos_, end - pos_), node.text))
          return false;
        pos_ = end;
      }
    }
  }

  std::string_view in_;
  std::size_t pos_ = 0;
};

// An optionally signed decimal integer, saturated to the int64 range (S3 then reports the number as it is).
bool parse_part_number(std::string_view text, std::int64_t& number) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  if (text.empty()) return false;
  std::int64_t value = 0;
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value > (max - (c - '0')) / 10 ? max : value * 10 + (c - '0');
  }
  number = negative ? -value : value;
  return true;
}

}  // namespace

std::optional<S3Error> parse_complete_document(std::string_view xml, std::vector<CompletedPart>& parts) {
  parts.clear();
  XmlNode root;
  if (!XmlReader(xml).document(root) || root.name != "CompleteMultipartUpload") return malformed_xml();
  for (const XmlNode& child : root.children) {
    if (child.name != "Part") return malformed_xml();
    CompletedPart part;
    bool has_number = false, has_etag = false;
    for (const XmlNode& field : child.children) {
      if (field.name == "PartNumber") {
        if (has_number || !parse_part_number(trim_xml_space(field.text), part.number)) return malformed_xml();
        has_number = true;
      } else if (field.name == "ETag") {
        if (has_etag) return malformed_xml();
        part.etag = trim_xml_space(field.text);
        has_etag = true;
      } else if (field.name.starts_with("Checksum")) {
        part.checksums.emplace_back(field.name, std::string(trim_xml_space(field.text)));
      }
      // Nothing else is defined inside a Part; anything else is read past, as the schema may grow.
    }
    if (!has_number || !has_etag) return malformed_xml();
    parts.push_back(std::move(part));
  }
  if (parts.empty()) return malformed_xml();
  return std::nullopt;
}

XmlWriter::XmlWriter(std::string_view root) : root_(root) {
  out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<";
  out_ += root;
  out_ += " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">";
}

void XmlWriter::element(std::string_view name, std::string_view text) {
  open(name);
  out_ += xml_escape(text);
  close(name);
}

void XmlWriter::open(std::string_view name) {
  out_ += '<';
  out_ += name;
  out_ += '>';
}

void XmlWriter::close(std::string_view name) {
  out_ += "</";
  out_ += name;
  out_ += '>';
}

std::string XmlWriter::finish() {
  close(root_);
  return std::move(out_);
}

std::string iso8601(std::time_t when) {
  std::tm parts{};
  gmtime_r(&when, &parts);
  char text[32];
  std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S.000Z", &parts);
  return std::string(text, n);
}

}  // namespace s3up::mock
