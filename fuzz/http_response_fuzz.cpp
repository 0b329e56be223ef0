// fuzz/http_response_fuzz.cpp: libFuzzer target for the client's handling of a server's answer: the status
// line and header fields (as curl hands them to the client's header callback), ETag and checksum echoes,
// the bounded error body and the S3 <Error> document. A real Client call goes to a canned server on the
// loopback interface that answers with the input. Input: byte 0 picks the call (modulo 5: put_object with a
// header checksum, get_object, delete_object, create_bucket, put_object with a trailer checksum), the rest is
// the raw HTTP response. Whatever the answer, the call must end
// with a value only for a 2xx answer, and with a typed error otherwise.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "s3up/body.h"
#include "s3up/client.h"

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "client response handling: %s\n", what);
  std::abort();
}

// A one-thread HTTP server on 127.0.0.1 that reads each request whole (head and Content-Length body, so the
// client is never cut off mid-upload) and answers it with the canned bytes, then closes its side.
class CannedServer {
 public:
  CannedServer() {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 16) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0)
      fail("cannot listen on 127.0.0.1");
    port_ = ntohs(address.sin_port);
    std::thread([this] { run(); }).detach();
  }

  int port() const { return port_; }

  void set_response(std::string_view bytes) {
    std::lock_guard lock(mutex_);
    response_.assign(bytes);
  }

 private:
  void run() {
    for (;;) {
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      serve(fd);
      ::close(fd);
    }
  }

  // Waits at most 2 s for bytes; 0 at the end of the stream, on error or on timeout.
  static std::size_t receive(int fd, char* buffer, std::size_t size) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 2000) <= 0) return 0;
    const ssize_t n = ::recv(fd, buffer, size, 0);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }

  void serve(int fd) {
    std::string request;
    char buffer[16384];
    std::size_t head_end = std::string::npos;
    while (head_end == std::string::npos && request.size() < (1 << 20)) {
      const std::size_t n = receive(fd, buffer, sizeof buffer);
      if (n == 0) return;
      request.append(buffer, n);
      head_end = request.find("\r\n\r\n");
    }
    if (head_end == std::string::npos) return;
    std::uint64_t body_length = 0;
    std::string head = s3up::ascii_lowercase(std::string_view(request).substr(0, head_end));
    if (std::size_t at = head.find("\r\ncontent-length:"); at != std::string::npos)
      body_length = std::strtoull(head.c_str() + at + 17, nullptr, 10);
    std::uint64_t received = request.size() - head_end - 4;
    while (received < body_length) {
      const std::size_t n = receive(fd, buffer, sizeof buffer);
      if (n == 0) return;
      received += n;
    }
    std::string response;
    {
      std::lock_guard lock(mutex_);
      response = response_;
    }
    for (std::size_t at = 0; at < response.size();) {
      const ssize_t n = ::send(fd, response.data() + at, response.size() - at, MSG_NOSIGNAL);
      if (n <= 0) return;
      at += static_cast<std::size_t>(n);
    }
    // The end of the answer for a client reading to the end; then wait for it to hang up.
    ::shutdown(fd, SHUT_WR);
    while (receive(fd, buffer, sizeof buffer) > 0) {
    }
  }

  int listener_ = -1;
  int port_ = 0;
  std::mutex mutex_;
  std::string response_;
};

// Process-wide by necessity: libFuzzer's entry point has no context argument. Never destroyed: its thread
// runs until the process ends.
CannedServer& canned_server() {
  static CannedServer* server = new CannedServer;
  return *server;
}

s3up::ClientConfig client_config() {
  s3up::ClientConfig config;
  config.endpoint_url = "http://127.0.0.1:" + std::to_string(canned_server().port());
  config.region = "us-east-1";
  config.credentials =
      s3up::sigv4::Credentials{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
  config.addressing = s3up::Addressing::path_style;
  config.checksum_algorithm = s3up::ChecksumAlgorithm::crc32;
  config.connect_timeout = std::chrono::milliseconds(2000);
  config.request_timeout = std::chrono::milliseconds(5000);
  config.stall_timeout = std::chrono::seconds(2);
  config.retry.max_attempts = 1;
  config.logger = std::make_shared<spdlog::logger>("fuzz", std::make_shared<spdlog::sinks::null_sink_mt>());
  return config;
}

// An error is typed and says what it can: a service error carries the status and a code.
void check_error(const s3up::Error& error) {
  if (error.kind == s3up::Error::Kind::service && (error.http_status == 0 || error.code.empty()))
    fail("a service error without a status or a code");
  (void)error.to_string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  canned_server().set_response(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  s3up::Client client(client_config());
  switch (data[0] % 5) {
    case 0:
    case 4: {
      // The checksum in a header (after a pre-read) or in an aws-chunked trailer.
      constexpr std::string_view body = "hello, world";
      s3up::MemorySource source(body);
      s3up::PutObjectOptions options;
      options.checksum_location =
          data[0] % 5 == 0 ? s3up::ChecksumLocation::header : s3up::ChecksumLocation::trailer;
      auto result = client.put_object("bucket", "key", source, options);
      if (!result) {
        check_error(result.error());
        break;
      }
      if (result->http_status < 200 || result->http_status > 299) fail("put_object succeeded without a 2xx");
      if (result->bytes != body.size()) fail("put_object reports another size");
      if (!result->checksum_returned.empty() && result->checksum_returned != result->checksum_sent)
        fail("put_object succeeded with a different checksum echoed");
      break;
    }
    case 1: {
      std::uint64_t received = 0;
      auto result = client.get_object("bucket", "key",
                                      [&](std::span<const std::byte> piece) { received += piece.size(); });
      if (!result) {
        check_error(result.error());
        break;
      }
      if (result->http_status < 200 || result->http_status > 299) fail("get_object succeeded without a 2xx");
      if (result->bytes != received) fail("get_object reports other than the bytes it delivered");
      break;
    }
    case 2: {
      auto result = client.delete_object("bucket", "key");
      if (!result)
        check_error(result.error());
      else if (result.value() < 200 || result.value() > 299)
        fail("delete_object succeeded without a 2xx");
      break;
    }
    case 3: {
      auto result = client.create_bucket("bucket");
      if (!result) check_error(result.error());
      // 409 BucketAlreadyOwnedByYou is the state the caller wanted: a success by design.
      else if ((result.value() < 200 || result.value() > 299) && result.value() != 409)
        fail("create_bucket succeeded without a 2xx");
      break;
    }
  }
  return 0;
}
