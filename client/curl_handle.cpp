// curl_handle.cpp: process-wide libcurl initialisation and the RAII handle owners.
#include "client/curl_handle.h"

#include <mutex>
#include <new>
#include <utility>

#include "s3up/checksum.h"  // trim_http_whitespace

namespace s3up {

void ensure_curl_global_init() {
  // curl_global_init is not thread-safe and must run before any other curl call; call_once needs its flag to
  // outlive every caller, hence the function-local static (the only mutable static in the module).
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

CurlHandle::CurlHandle() {
  ensure_curl_global_init();
  handle_ = curl_easy_init();
  if (handle_ == nullptr) throw std::bad_alloc();
}

CurlHandle::~CurlHandle() {
  if (handle_ != nullptr) curl_easy_cleanup(handle_);
}

CurlHandle::CurlHandle(CurlHandle&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), header_list_(std::move(other.header_list_)) {}

CurlHandle& CurlHandle::operator=(CurlHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) curl_easy_cleanup(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    header_list_ = std::move(other.header_list_);
  }
  return *this;
}

void CurlHeaderList::clear() {
  text_.clear();
  starts_.clear();
}

void CurlHeaderList::add(std::string_view name, std::string_view value) {
  if (trim_http_whitespace(value).empty()) {
    add_line(name, ";", {});
  } else {
    add_line(name, ": ", value);
  }
}

void CurlHeaderList::remove(std::string_view name) {
  add_line(name, ":", {});
}

void CurlHeaderList::add_line(std::string_view name, std::string_view separator, std::string_view value) {
  starts_.push_back(text_.size());
  text_.append(name).append(separator).append(value).push_back('\0');
}

curl_slist* CurlHeaderList::get() {
  // Linked only now: text_ may have moved while it grew.
  nodes_.resize(starts_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i].data = text_.data() + starts_[i];
    nodes_[i].next = i + 1 < nodes_.size() ? &nodes_[i + 1] : nullptr;
  }
  return nodes_.empty() ? nullptr : nodes_.data();
}

}  // namespace s3up
