// scripted_http_server.h: a tiny HTTP/1.1 responder on 127.0.0.1 that answers each request with a scripted
// reply, for the answers the honest mock server never gives (a wrong checksum echo, an early answer, a
// keep-alive connection dropped without an answer). It records every request it read. Test code only.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace s3up::test {

// What the responder does with the n-th request it sees.
struct ScriptStep {
  std::string reply;      // the raw answer, status line to body; empty: no answer
  bool read_body = true;  // false: answer as soon as the head has arrived, then read until the client closes
  bool close = false;     // close the connection after the answer (or, with no answer, instead of it)
};

struct RecordedRequest {
  std::string head;  // request line and headers, up to and including the blank line
  std::string body;  // the Content-Length bytes that followed (empty when the step did not read them)
  std::size_t connection = 0;  // 1 for the first connection accepted, 2 for the next...
};

// "HTTP/1.1 <status>" with the given extra header lines ("Name: value\r\n" each) and body.
inline std::string http_reply(std::string_view status, std::string_view headers = "",
                              std::string_view body = "") {
  return "HTTP/1.1 " + std::string(status) + "\r\n" + std::string(headers) +
         "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

class ScriptedHttpServer {
 public:
  // Request n gets steps[n]; requests past the end get the last step.
  explicit ScriptedHttpServer(std::vector<ScriptStep> steps) : steps_(std::move(steps)) {
    if (steps_.empty()) throw std::invalid_argument("a script needs at least one step");
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener_ < 0) throw std::runtime_error("socket failed");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 8) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ::close(listener_);
      throw std::runtime_error("cannot listen on 127.0.0.1");
    }
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedHttpServer() {
    stopping_ = true;
    thread_.join();
    ::close(listener_);
  }
  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<RecordedRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  // Waits for fd to be readable, giving up when the server is stopping.
  bool wait_readable(int fd) const {
    pollfd entry{fd, POLLIN, 0};
    while (!stopping_) {
      int ready = ::poll(&entry, 1, 50);
      if (ready > 0) return true;
      if (ready < 0) return false;
    }
    return false;
  }

  // Appends what arrives to buffer; false at end of stream, on error or when stopping.
  bool receive(int fd, std::string& buffer) const {
    if (!wait_readable(fd)) return false;
    char chunk[65536];
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  static std::size_t content_length(std::string_view head) {
    std::string lower(head);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::size_t at = lower.find("\r\ncontent-length:");
    if (at == std::string::npos) return 0;
    return std::stoull(lower.substr(at + 17));
  }

  void serve() {
    std::size_t request_index = 0;
    std::size_t connection = 0;
    while (!stopping_) {
      if (!wait_readable(listener_)) return;
      int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      ++connection;
      std::string buffer;
      bool open = true;
      while (open && !stopping_) {
        std::size_t head_end;
        while ((head_end = buffer.find("\r\n\r\n")) == std::string::npos && (open = receive(fd, buffer))) {
        }
        if (!open) break;
        RecordedRequest request;
        request.head = buffer.substr(0, head_end + 4);
        request.connection = connection;
        buffer.erase(0, head_end + 4);
        const ScriptStep& step = steps_[std::min(request_index++, steps_.size() - 1)];
        if (step.read_body) {
          std::size_t length = content_length(request.head);
          while (buffer.size() < length && (open = receive(fd, buffer))) {
          }
          request.body = buffer.substr(0, length);
          buffer.erase(0, request.body.size());
        }
        {
          std::lock_guard lock(mutex_);
          requests_.push_back(request);
        }
        if (!open) break;
        if (!step.reply.empty()) ::send(fd, step.reply.data(), step.reply.size(), MSG_NOSIGNAL);
        if (step.close) break;
        if (!step.read_body) {
          while (receive(fd, buffer)) buffer.clear();  // the rest of the body, until the client gives up
          break;
        }
      }
      ::close(fd);
    }
  }

  std::vector<ScriptStep> steps_;
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::vector<RecordedRequest> requests_;
  std::thread thread_;
};

}  // namespace s3up::test
