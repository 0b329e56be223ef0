// bench/sendfile_put.cpp: see sendfile_put.h. Plain POSIX sockets, one connection per request; both ends
// kept as simple as HTTP allows, so that what they measure is the peer (or the loopback copy itself).
#include "sendfile_put.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

#include "s3up/sigv4.h"

namespace s3up::bench {
namespace {

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {
    if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  ~Socket() {
    if (fd_ >= 0) close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

void send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("send: ") + std::strerror(errno));
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Case-insensitive search for a header's value in a head ("...\r\nName: value\r\n..."); nullopt if absent.
std::optional<std::uint64_t> content_length(std::string_view head) {
  constexpr std::string_view name = "\r\ncontent-length:";
  for (std::size_t at = 0; at + name.size() <= head.size(); ++at) {
    bool same = true;
    for (std::size_t i = 0; i < name.size() && same; ++i) {
      const char c = head[at + i];
      same = (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == name[i];
    }
    if (same) return std::strtoull(head.data() + at + name.size(), nullptr, 10);
  }
  return std::nullopt;
}

// Reads until the end of a head ("\r\n\r\n"). Returns the head and leaves what came after it in `rest`.
// Throws if the peer closes first.
std::string read_head(int fd, std::string& rest) {
  std::string received;
  char buffer[4096];
  for (;;) {
    const std::size_t end = received.find("\r\n\r\n");
    if (end != std::string::npos) {
      rest = received.substr(end + 4);
      received.resize(end + 4);
      return received;
    }
    if (received.size() > 65536) throw std::runtime_error("HTTP head longer than 64 KiB");
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("connection closed before the end of an HTTP head");
    received.append(buffer, static_cast<std::size_t>(n));
  }
}

// sendfile(2) has no MSG_NOSIGNAL: a server that refuses early and closes would kill the benchmark with
// SIGPIPE. Blocked on this thread for the transfer; one raised meanwhile is consumed before the mask is
// restored (as curl does), so the process's signal dispositions, which children inherit, stay untouched.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
  }
  ~SigpipeBlocked() {
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) && !sigismember(&previous_, SIGPIPE)) {
      const timespec no_wait{};
      sigtimedwait(&pipe_, nullptr, &no_wait);
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_;
  sigset_t previous_;
};

}  // namespace

SendfilePutResult sendfile_put(const SendfilePutTarget& target, int file_fd, std::uint64_t file_size,
                               const std::string& crc32_base64) {
  const std::string host = "127.0.0.1:" + std::to_string(target.port);
  const std::string path = "/" + target.bucket + "/" + target.key;
  const std::string amz_date = sigv4::amz_date(static_cast<std::int64_t>(std::time(nullptr)));
  sigv4::RequestToSign request;
  request.method = "PUT";
  request.path = path;
  request.headers = {{"host", host},
                     {"x-amz-checksum-crc32", crc32_base64},
                     {"x-amz-content-sha256", std::string(sigv4::unsigned_payload)},
                     {"x-amz-date", amz_date}};
  request.payload_hash = sigv4::unsigned_payload;
  const sigv4::CredentialScope scope{amz_date.substr(0, 8), target.region};
  const sigv4::SignedRequest signed_request =
      sigv4::sign_request(request, {target.access_key, target.secret_key, ""}, scope, amz_date);
  std::string head = "PUT " + sigv4::uri_encode(path, false) + " HTTP/1.1\r\n";
  for (const sigv4::Header& header : request.headers) head += header.name + ": " + header.value + "\r\n";
  head += "Content-Length: " + std::to_string(file_size) + "\r\n";
  head += "Authorization: " + signed_request.authorization + "\r\n\r\n";

  Socket socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const sockaddr_in address = loopback(target.port);
  if (connect(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
  send_all(socket.get(), head);

  SendfilePutResult result;
  const SigpipeBlocked no_sigpipe;
  off_t offset = 0;
  while (static_cast<std::uint64_t>(offset) < file_size) {
    const std::uint64_t left = file_size - static_cast<std::uint64_t>(offset);
    // sendfile moves at most 0x7ffff000 bytes per call: ask for 1 GiB at a time.
    const ssize_t n = sendfile(socket.get(), file_fd, &offset, left < 0x40000000u ? left : 0x40000000u);
    if (n < 0 && errno == EINTR) continue;
    // A server that refuses early (a bad signature) answers and closes: stop and read its answer.
    if (n <= 0) break;
  }
  result.body_bytes_sent = static_cast<std::uint64_t>(offset);

  std::string rest;
  result.response_head = read_head(socket.get(), rest);
  if (result.response_head.rfind("HTTP/1.1 ", 0) != 0) throw std::runtime_error("not an HTTP/1.1 response");
  result.http_status = std::atoi(result.response_head.c_str() + 9);
  const std::uint64_t body_size = content_length(result.response_head).value_or(0);
  result.response_body = std::move(rest);
  char buffer[4096];
  while (result.response_body.size() < body_size) {
    const ssize_t n = recv(socket.get(), buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.response_body.append(buffer, static_cast<std::size_t>(n));
  }
  return result;
}

struct DiscardingSink::Impl {
  Socket listener{::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)};
  std::uint16_t port = 0;
  std::atomic<bool> stopping{false};
  std::atomic<std::uint64_t> discarded{0};
  std::vector<char> buffer = std::vector<char>(1 << 20);  // the one reused receive buffer
  std::thread thread;

  void serve_one(int fd) {
    std::string rest;
    const std::string head = read_head(fd, rest);
    const std::uint64_t length = content_length(head).value_or(0);
    std::uint64_t received = rest.size();
    while (received < length) {
      const ssize_t n = recv(fd, buffer.data(), buffer.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error("the sender closed mid-body");
      received += static_cast<std::uint64_t>(n);
    }
    discarded += received;
    send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  }

  void run() {
    while (!stopping) {
      const int fd = accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EINTR || errno == ECONNABORTED) continue;
        return;  // the listener was shut down
      }
      Socket connection(fd);
      try {
        serve_one(connection.get());
      } catch (const std::exception&) {
        // The sender sees the connection close without an answer and reports it.
      }
    }
  }
};

DiscardingSink::DiscardingSink() : impl_(std::make_unique<Impl>()) {
  sockaddr_in address = loopback(0);
  socklen_t length = sizeof address;
  if (bind(impl_->listener.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      listen(impl_->listener.get(), 4) != 0 ||
      getsockname(impl_->listener.get(), reinterpret_cast<sockaddr*>(&address), &length) != 0)
    throw std::runtime_error(std::string("discarding sink: ") + std::strerror(errno));
  impl_->port = ntohs(address.sin_port);
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

DiscardingSink::~DiscardingSink() {
  impl_->stopping = true;
  // Wakes the thread blocked in accept(): on Linux, accept on a shut-down listener fails with EINVAL.
  shutdown(impl_->listener.get(), SHUT_RDWR);
  impl_->thread.join();
}

std::uint16_t DiscardingSink::port() const {
  return impl_->port;
}

std::uint64_t DiscardingSink::bytes_discarded() const {
  return impl_->discarded;
}

}  // namespace s3up::bench
