// client/curl_handle.h: RAII owners of libcurl handles: the easy handle (one per Client, so its connection
// cache survives between requests) and the header list of one request.
#pragma once

#include <curl/curl.h>

#include <string>

namespace s3up {

// Calls curl_global_init exactly once per process, before the first easy handle exists.
void ensure_curl_global_init();

class CurlHandle {
 public:
  CurlHandle();  // throws std::bad_alloc when curl cannot make a handle
  ~CurlHandle();
  CurlHandle(CurlHandle&& other) noexcept;
  CurlHandle& operator=(CurlHandle&& other) noexcept;
  CurlHandle(const CurlHandle&) = delete;
  CurlHandle& operator=(const CurlHandle&) = delete;

  CURL* get() const { return handle_; }
  // Clears every option set by the previous request; the connection cache and DNS cache survive.
  void reset() { curl_easy_reset(handle_); }

 private:
  CURL* handle_ = nullptr;
};

class CurlHeaderList {
 public:
  CurlHeaderList() = default;
  ~CurlHeaderList();
  CurlHeaderList(const CurlHeaderList&) = delete;
  CurlHeaderList& operator=(const CurlHeaderList&) = delete;

  // "Name: value". "Name:" makes curl drop a header it would add itself; "Name;" sends it empty.
  void append(const std::string& line);
  curl_slist* get() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

}  // namespace s3up
