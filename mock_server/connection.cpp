// connection.cpp: blocking socket and TLS I/O for one client, and its read buffer.
#include "connection.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

namespace s3up::mock {

void Connection::SslDeleter::operator()(ssl_st* ssl) const {
  SSL_free(ssl);
}

Connection::Connection(UniqueFd fd, ssl_ctx_st* tls_context)
    : fd_(std::move(fd)), tls_(tls_context != nullptr) {
  if (tls_context == nullptr) return;
  ssl_.reset(SSL_new(tls_context));
  if (ssl_) SSL_set_fd(ssl_.get(), fd_.get());
}

Connection::~Connection() {
  close();
}

void Connection::set_timeout(int timeout_ms) {
  timeval timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  ::setsockopt(fd_.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd_.get(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
}

namespace {

// After a failed socket call (errno) or TLS call (its SSL_get_error code): did the socket timeout expire?
bool timeout_expired() {
  return errno == EAGAIN || errno == EWOULDBLOCK;
}

bool tls_timeout_expired(int ssl_error) {
  return ssl_error == SSL_ERROR_WANT_READ || ssl_error == SSL_ERROR_WANT_WRITE ||
         (ssl_error == SSL_ERROR_SYSCALL && timeout_expired());
}

}  // namespace

bool Connection::handshake() {
  if (interrupted_) return false;
  if (!ssl_) return !tls_ && static_cast<bool>(fd_);  // SSL_new failed: never fall back to plain text
  ERR_clear_error();
  bool ok = SSL_accept(ssl_.get()) == 1;
  ERR_clear_error();  // a client that gives up mid-handshake is not our error to keep around
  return ok;
}

std::size_t Connection::read_some(std::span<std::byte> out) {
  if (out.empty() || interrupted_) return 0;
  if (ssl_) {
    // SSL_read takes an int length; TLS records are at most 16 KiB anyway.
    int want = static_cast<int>(std::min<std::size_t>(out.size(), 1 << 30));
    int n = SSL_read(ssl_.get(), out.data(), want);
    if (n <= 0) {
      timed_out_ = tls_timeout_expired(SSL_get_error(ssl_.get(), n));
      ERR_clear_error();
      return 0;
    }
    return static_cast<std::size_t>(n);
  }
  for (;;) {
    ssize_t n = ::recv(fd_.get(), out.data(), out.size(), 0);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EINTR) continue;
    timed_out_ = timeout_expired();
    return 0;
  }
}

bool Connection::write_all(std::span<const std::byte> data) {
  if (response_delay_.count() > 0) {
    auto until = std::chrono::steady_clock::now() + std::exchange(response_delay_, {});
    if (!sleep_until(until)) return false;
  }
  return write_bytes(data);
}

bool Connection::send_continue() {
  if (ignore_expect_) return true;
  constexpr std::string_view interim = "HTTP/1.1 100 Continue\r\n\r\n";
  return write_bytes(std::as_bytes(std::span(interim.data(), interim.size())));
}

bool Connection::sleep_until(std::chrono::steady_clock::time_point until) {
  // Short naps rather than one long sleep, so that Server::stop() is not held up by a delay fault.
  constexpr auto nap = std::chrono::milliseconds(20);
  while (!interrupted_) {
    auto now = std::chrono::steady_clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(until - now, nap));
  }
  return false;
}

bool Connection::write_bytes(std::span<const std::byte> data) {
  while (!data.empty()) {
    if (interrupted_) return false;
    if (ssl_) {
      int want = static_cast<int>(std::min<std::size_t>(data.size(), 1 << 30));
      int n = SSL_write(ssl_.get(), data.data(), want);
      if (n <= 0) {
        timed_out_ = tls_timeout_expired(SSL_get_error(ssl_.get(), n));
        ERR_clear_error();
        return false;
      }
      data = data.subspan(static_cast<std::size_t>(n));
      continue;
    }
    // MSG_NOSIGNAL: a client that went away must not kill the process with SIGPIPE.
    ssize_t n = ::send(fd_.get(), data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      timed_out_ = timeout_expired();
      return false;
    }
    data = data.subspan(static_cast<std::size_t>(n));
  }
  return true;
}

void Connection::linger_close(std::uint64_t max_bytes, int timeout_ms) {
  {
    std::lock_guard lock(fd_mutex_);
    if (!fd_) return;
    ::shutdown(fd_.get(), SHUT_WR);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  std::byte sink[16384];
  std::uint64_t dropped = 0;
  while (dropped < max_bytes && !interrupted_) {
    bool pending = ssl_ && SSL_pending(ssl_.get()) > 0;
    if (!pending) {
      auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_.get(), POLLIN, 0};
      // A client still sending keeps the connection alive; one that went quiet is done with us.
      int ready = ::poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 500)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) break;
    }
    std::size_t n = read_some(sink);
    if (n == 0) break;
    dropped += n;
  }
  close();
}

void Connection::reset() {
  std::lock_guard lock(fd_mutex_);
  if (!fd_) return;
  // A zero linger time makes close() discard unsent data and send RST: the client sees ECONNRESET.
  linger abort{1, 0};
  ::setsockopt(fd_.get(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
  ssl_.reset();  // no close_notify: the connection dies mid-exchange
  fd_.reset();
}

void Connection::interrupt() {
  interrupted_ = true;
  std::lock_guard lock(fd_mutex_);
  if (fd_) ::shutdown(fd_.get(), SHUT_RDWR);
}

void Connection::close() {
  std::lock_guard lock(fd_mutex_);
  ssl_.reset();
  fd_.reset();
}

BufferedReader::BufferedReader(Connection& connection, std::size_t capacity)
    : connection_(connection),
      buffer_(std::make_unique_for_overwrite<std::byte[]>(capacity)),
      capacity_(capacity) {}

void BufferedReader::throttle(std::uint64_t bytes_per_second) {
  bytes_per_second_ = bytes_per_second;
  paced_bytes_ = 0;
  pace_start_ = std::chrono::steady_clock::now();
}

// Throttled, the socket is read a twentieth of a second's worth at a time, so the kernel's receive buffer
// fills and TCP flow control slows the sender down.
std::size_t BufferedReader::socket_read_limit() const {
  if (bytes_per_second_ == 0) return capacity_;
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(bytes_per_second_ / 20, 1, capacity_ / 4));
}

void BufferedReader::pace(std::size_t n) {
  paced_bytes_ += n;
  auto due = pace_start_ + std::chrono::microseconds(paced_bytes_ * 1000000 / bytes_per_second_);
  connection_.sleep_until(due);
}

bool BufferedReader::fill() {
  if (begin_ > 0) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == capacity_) return false;
  std::size_t n =
      connection_.read_some({buffer_.get() + end_, std::min(capacity_ - end_, socket_read_limit())});
  end_ += n;
  return n > 0;
}

std::size_t BufferedReader::read(std::span<std::byte> out) {
  if (out.empty()) return 0;
  out = out.first(std::min(out.size(), socket_read_limit()));
  if (begin_ == end_) {
    begin_ = end_ = 0;
    // Large reads go straight into the caller's buffer (the object's final buffer): one copy less.
    if (out.size() >= capacity_ / 2) {
      std::size_t n = connection_.read_some(out);
      consumed_ += n;
      return n;
    }
    if (!fill()) return 0;
  }
  std::size_t n = std::min(out.size(), end_ - begin_);
  std::memcpy(out.data(), buffer_.get() + begin_, n);
  consume(n);
  return n;
}

BufferedReader::LineStatus BufferedReader::read_line(std::size_t max_length, std::string_view& line) {
  std::size_t scanned = 0;
  for (;;) {
    auto data = buffered();
    auto from = data.begin() + static_cast<std::ptrdiff_t>(scanned);
    auto lf = std::find(from, data.end(), std::byte{'\n'});
    if (lf != data.end()) {
      std::size_t length = static_cast<std::size_t>(lf - data.begin());
      if (length > max_length + 1) return LineStatus::too_long;
      const char* text = reinterpret_cast<const char*>(data.data());
      consume(length + 1);
      if (length > 0 && text[length - 1] == '\r') --length;
      line = std::string_view(text, length);
      return LineStatus::ok;
    }
    scanned = data.size();
    if (scanned > max_length + 1) return LineStatus::too_long;
    if (!fill()) return scanned > 0 && end_ == capacity_ ? LineStatus::too_long : LineStatus::closed;
  }
}

}  // namespace s3up::mock
