// listener.h: the listening TCP socket and a wakeable accept, so that stop() can end the accept loop.
#pragma once

#include <cstdint>
#include <string>

#include "unique_fd.h"

namespace s3up::mock {

class Listener {
 public:
  // Binds host:port (port 0: the kernel picks) and listens. Throws std::runtime_error if it cannot.
  Listener(const std::string& host, std::uint16_t port);

  std::uint16_t port() const { return port_; }
  bool ipv6() const { return ipv6_; }
  // Blocks until a client connects (returns its socket) or wake() is called (returns an empty UniqueFd).
  UniqueFd accept();
  void wake();  // from any thread

 private:
  UniqueFd socket_;
  UniqueFd wake_;  // an eventfd polled alongside the socket
  std::uint16_t port_ = 0;
  bool ipv6_ = false;
};

}  // namespace s3up::mock
