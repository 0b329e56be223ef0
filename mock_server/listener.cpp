// listener.cpp: bind, listen and accept on a POSIX socket, with an eventfd to interrupt accept.
#include "listener.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace s3up::mock {

namespace {

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::runtime_error("mock S3 server: " + what + ": " + std::strerror(errno));
}

}  // namespace

Listener::Listener(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  std::string service = std::to_string(port);
  int rc = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found);
  if (rc != 0) throw std::runtime_error("mock S3 server: cannot resolve " + host + ": " + ::gai_strerror(rc));
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> addresses(found, ::freeaddrinfo);

  socket_.reset(::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!socket_) throw_errno("socket");
  int one = 1;
  ::setsockopt(socket_.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(socket_.get(), found->ai_addr, found->ai_addrlen) != 0)
    throw_errno("bind " + host + ":" + service);
  if (::listen(socket_.get(), 128) != 0) throw_errno("listen");

  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  if (::getsockname(socket_.get(), reinterpret_cast<sockaddr*>(&bound), &length) != 0)
    throw_errno("getsockname");
  ipv6_ = bound.ss_family == AF_INET6;
  port_ = ntohs(ipv6_ ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                      : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);

  wake_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!wake_) throw_errno("eventfd");
}

UniqueFd Listener::accept() {
  for (;;) {
    pollfd fds[2] = {{socket_.get(), POLLIN, 0}, {wake_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return UniqueFd();
    }
    if (fds[1].revents != 0) return UniqueFd();
    if (fds[0].revents == 0) continue;
    UniqueFd client(::accept4(socket_.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!client) {
      // The client may have given up between poll and accept, or we are short of descriptors: keep serving.
      if (errno == EMFILE || errno == ENFILE) ::poll(nullptr, 0, 10);  // wait for a descriptor to free up
      if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN || errno == EMFILE || errno == ENFILE)
        continue;
      return UniqueFd();
    }
    // Small responses (headers, XML errors) should leave at once rather than wait for Nagle.
    int one = 1;
    ::setsockopt(client.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return client;
  }
}

void Listener::wake() {
  std::uint64_t one = 1;
  [[maybe_unused]] ssize_t n = ::write(wake_.get(), &one, sizeof one);
}

}  // namespace s3up::mock
