// bench/ingest_put.cpp: see ingest_put.h. Plain POSIX sockets, one connection per request; both ends
// kept as simple as HTTP allows, so that what they measure is the peer (or the loopback copy itself).
#include "ingest_put.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_support.h"
#include "s3up/checksum.h"  // ascii_iequals
#include "s3up/sigv4.h"
#include "unsigned_put.h"

namespace s3up::bench {
namespace {

// A new TCP socket; throws when the system has none to give.
FileDescriptor tcp_socket() {
  FileDescriptor socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (socket.get() < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  return socket;
}

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

// Sends all of `data`; false when the peer stopped taking it (it closed or reset the connection).
bool send_all_or_stop(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void send_all(int fd, std::string_view data) {
  if (!send_all_or_stop(fd, data)) throw std::runtime_error(std::string("send: ") + std::strerror(errno));
}

// Case-insensitive search for a header's value in a head ("...\r\nName: value\r\n..."); nullopt if absent.
std::optional<std::uint64_t> content_length(std::string_view head) {
  constexpr std::string_view name = "\r\ncontent-length:";
  for (std::size_t at = 0; at + name.size() <= head.size(); ++at) {
    if (ascii_iequals(head.substr(at, name.size()), name))
      return std::strtoull(head.data() + at + name.size(), nullptr, 10);
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

// The sender's one buffer: pread() from the page cache into it, send() from it while it is still in cache.
// 1 MiB measured best on this VM (into a discarding reader: 2.4-3.1 GB/s; 256 KiB: 1.5-2.7 GB/s).
// sendfile(2), which this sender used first, tops out at 1.4-1.6 GB/s over loopback: it measured itself, not
// the server.
constexpr std::size_t ingest_buffer_size = 1 << 20;

}  // namespace

IngestPutResult ingest_put(const IngestPutTarget& target, int file_fd, std::uint64_t file_size,
                           const std::string& crc32_base64) {
  const UnsignedPut put =
      sign_unsigned_put("127.0.0.1:" + std::to_string(target.port), target.bucket, target.key, target.region,
                        target.access_key, target.secret_key, {{"x-amz-checksum-crc32", crc32_base64}});
  std::string head = "PUT " + sigv4::uri_encode(put.path, false) + " HTTP/1.1\r\n";
  for (const sigv4::Header& header : put.headers) head += header.name + ": " + header.value + "\r\n";
  head += "Content-Length: " + std::to_string(file_size) + "\r\n";
  head += "Authorization: " + put.authorization + "\r\n\r\n";

  const FileDescriptor socket = tcp_socket();
  const sockaddr_in address = loopback(target.port);
  if (connect(socket.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
  send_all(socket.get(), head);

  IngestPutResult result;
  std::vector<char> body(ingest_buffer_size);
  std::uint64_t offset = 0;
  while (offset < file_size) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::uint64_t>(body.size(), file_size - offset));
    const ssize_t got = pread(file_fd, body.data(), want, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw std::runtime_error(std::string("pread: ") + (got == 0 ? "short file" : std::strerror(errno)));
    // A server that refuses early (a bad signature) answers and closes: stop and read its answer.
    if (!send_all_or_stop(socket.get(), {body.data(), static_cast<std::size_t>(got)})) break;
    offset += static_cast<std::uint64_t>(got);
  }
  result.body_bytes_sent = offset;

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
  FileDescriptor listener = tcp_socket();
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
      const FileDescriptor connection(fd);
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
