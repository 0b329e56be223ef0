// bench/raw_curl_put.cpp: see raw_curl_put.h. Only what `curl -T` sets, plus the three SigV4 headers.
#include "raw_curl_put.h"

#include <curl/curl.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "s3up/sigv4.h"
#include "unsigned_put.h"

namespace s3up::bench {
namespace {

std::size_t read_file(char* buffer, std::size_t size, std::size_t count, void* user) {
  return std::fread(buffer, size, count, static_cast<std::FILE*>(user));
}

std::size_t discard(char*, std::size_t size, std::size_t count, void*) {
  return size * count;
}

struct CurlDeleter {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
struct FileDeleter {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

}  // namespace

RawPutResult raw_curl_put(const RawPutTarget& target, const std::string& file_path) {
  const std::string host = target.endpoint_url.substr(target.endpoint_url.find("://") + 3);
  const UnsignedPut put =
      sign_unsigned_put(host, target.bucket, target.key, target.region, target.access_key, target.secret_key);

  std::unique_ptr<std::FILE, FileDeleter> file(std::fopen(file_path.c_str(), "rb"));
  if (!file) throw std::runtime_error("cannot open " + file_path);
  const auto size = static_cast<curl_off_t>(std::filesystem::file_size(file_path));

  std::vector<std::string> lines;
  for (const sigv4::Header& header : put.headers)
    if (header.name != "host") lines.push_back(header.name + ": " + header.value);  // curl writes Host itself
  lines.push_back("Authorization: " + put.authorization);
  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const std::string& line : lines) {
    curl_slist* appended = curl_slist_append(headers.get(), line.c_str());
    if (appended == nullptr) throw std::runtime_error("curl_slist_append failed");
    static_cast<void>(headers.release());
    headers.reset(appended);
  }

  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) throw std::runtime_error("curl_easy_init failed");
  CURL* handle = curl.get();
  const std::string url = target.endpoint_url + put.path;
  char error_buffer[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
  curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, size);
  curl_easy_setopt(handle, CURLOPT_READFUNCTION, read_file);
  curl_easy_setopt(handle, CURLOPT_READDATA, file.get());
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer);
  if (!target.ca_bundle.empty()) curl_easy_setopt(handle, CURLOPT_CAINFO, target.ca_bundle.c_str());

  RawPutResult result;
  const CURLcode code = curl_easy_perform(handle);
  if (code != CURLE_OK) result.error = error_buffer[0] ? error_buffer : curl_easy_strerror(code);
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &result.http_status);
  curl_off_t uploaded = 0;
  curl_easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, &uploaded);
  result.uploaded = static_cast<std::uint64_t>(uploaded);
  return result;
}

}  // namespace s3up::bench
