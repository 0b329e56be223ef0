// bench/ingest_put.h: the cheapest HTTP PUT a client can make, to measure what a server can ingest: a
// SigV4-signed UNSIGNED-PAYLOAD PUT whose x-amz-checksum-crc32 was computed in advance, the body read from a
// page-cached file by pread() into one reused 1 MiB buffer and written with send(). Beside it, a
// discarding HTTP sink on loopback that receives the same request into one reused buffer: the ceiling.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace s3up::bench {

struct IngestPutTarget {
  std::uint16_t port = 0;  // on 127.0.0.1, plain HTTP
  std::string bucket;
  std::string key;
  std::string access_key;
  std::string secret_key;
  std::string region;
};

struct IngestPutResult {
  int http_status = 0;
  std::uint64_t body_bytes_sent = 0;
  std::string response_head;  // status line and header fields
  std::string response_body;  // the S3 error document of a failed PUT, for the message
};

// PUTs the whole file (an open fd, read with pread() from offset 0, so the fd's file position is untouched)
// with `crc32_base64` as its x-amz-checksum-crc32 header, on a fresh connection, and reads the
// response. Throws std::runtime_error on a socket failure; an HTTP error comes back as http_status.
IngestPutResult ingest_put(const IngestPutTarget& target, int file_fd, std::uint64_t file_size,
                           const std::string& crc32_base64);

// A minimal HTTP/1.1 endpoint on 127.0.0.1 that, for each connection, reads a request head, reads and
// discards Content-Length body bytes into one reused 1 MiB buffer (recv only: nothing is parsed or hashed),
// answers "200 OK" and closes. One connection at a time, on its own thread; stopped on destruction.
class DiscardingSink {
 public:
  DiscardingSink();
  ~DiscardingSink();
  DiscardingSink(const DiscardingSink&) = delete;
  DiscardingSink& operator=(const DiscardingSink&) = delete;

  std::uint16_t port() const;
  std::uint64_t bytes_discarded() const;  // body bytes received over all requests so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace s3up::bench
