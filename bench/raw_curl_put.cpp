// bench/raw_curl_put.cpp: see raw_curl_put.h. Only what `curl -T` sets, plus the three SigV4 headers.
#include "raw_curl_put.h"

#include <curl/curl.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "s3up/sigv4.h"

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
  const std::string path = "/" + target.bucket + "/" + target.key;
  const std::string amz_date = sigv4::amz_date(static_cast<std::int64_t>(std::time(nullptr)));

  sigv4::RequestToSign request;
  request.method = "PUT";
  request.path = path;
  request.headers = {{"host", host},
                     {"x-amz-content-sha256", std::string(sigv4::unsigned_payload)},
                     {"x-amz-date", amz_date}};
  request.payload_hash = sigv4::unsigned_payload;
  const sigv4::CredentialScope scope{amz_date.substr(0, 8), target.region};
  const sigv4::SignedRequest signed_request =
      sigv4::sign_request(request, {target.access_key, target.secret_key, ""}, scope, amz_date);

  std::unique_ptr<std::FILE, FileDeleter> file(std::fopen(file_path.c_str(), "rb"));
  if (!file) throw std::runtime_error("cannot open " + file_path);
  const auto size = static_cast<curl_off_t>(std::filesystem::file_size(file_path));

  std::unique_ptr<curl_slist, SlistDeleter> headers;
  for (const std::string& line :
       {"x-amz-content-sha256: " + std::string(sigv4::unsigned_payload), "x-amz-date: " + amz_date,
        "Authorization: " + signed_request.authorization}) {
    curl_slist* appended = curl_slist_append(headers.get(), line.c_str());
    if (appended == nullptr) throw std::runtime_error("curl_slist_append failed");
    static_cast<void>(headers.release());
    headers.reset(appended);
  }

  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) throw std::runtime_error("curl_easy_init failed");
  CURL* handle = curl.get();
  const std::string url = target.endpoint_url + path;
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
