// client/curl_handle.h: RAII owners of libcurl handles: the easy handle (one per Client, so its connection
// cache survives between requests) and the storage its requests' header lists are built in.
#pragma once

#include <curl/curl.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace s3up {

// Calls curl_global_init exactly once per process, before the first easy handle exists.
void ensure_curl_global_init();

// The header lines of a request as curl's CURLOPT_HTTPHEADER list. The list's nodes and text are ours and
// kept from one request to the next (curl only reads the list during the transfer), so once they have grown
// to a request's size no request allocates here; curl_slist_append would allocate twice per line.
class CurlHeaderList {
 public:
  void clear();
  // "Name: value". A value that is empty or only whitespace goes as "Name;", curl's way to send a header with
  // no value: curl would leave out "Name:   " altogether, while SigV4 signs it as "name:".
  void add(std::string_view name, std::string_view value);
  // "Name:": curl leaves out the header it would have added itself.
  void remove(std::string_view name);
  // The list over the lines added since clear(); valid until the next clear(), add() or remove(), or until
  // the list moves.
  curl_slist* get();

 private:
  void add_line(std::string_view name, std::string_view separator, std::string_view value);

  std::string text_;                 // the lines, each ended by '\0'
  std::vector<std::size_t> starts_;  // where each line begins in text_
  std::vector<curl_slist> nodes_;
};

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
  // Where each request builds its header list (see CurlHeaderList); it must outlive the transfer.
  CurlHeaderList& header_list() { return header_list_; }

 private:
  CURL* handle_ = nullptr;
  CurlHeaderList header_list_;
};

}  // namespace s3up
