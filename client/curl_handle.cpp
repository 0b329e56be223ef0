// curl_handle.cpp: process-wide libcurl initialisation and the RAII handle owners.
#include "client/curl_handle.h"

#include <mutex>
#include <new>
#include <utility>

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

CurlHandle::CurlHandle(CurlHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}

CurlHandle& CurlHandle::operator=(CurlHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) curl_easy_cleanup(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

CurlHeaderList::~CurlHeaderList() {
  curl_slist_free_all(list_);
}

void CurlHeaderList::append(const std::string& line) {
  curl_slist* grown = curl_slist_append(list_, line.c_str());
  if (grown == nullptr) throw std::bad_alloc();
  list_ = grown;
}

}  // namespace s3up
