// connection.h: one accepted client connection, plain TCP or TLS, behind one blocking read/write interface,
// and the read buffer that the HTTP head parser and the body readers share; both carry the transport-level
// injected faults (throttled reads, a delayed answer, no 100 Continue, a reset).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>

#include "unique_fd.h"

struct ssl_st;
struct ssl_ctx_st;

namespace s3up::mock {

class Connection {
 public:
  // tls_context null: plain TCP. Otherwise the TLS handshake runs in handshake(), on the serving thread.
  Connection(UniqueFd fd, ssl_ctx_st* tls_context);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // A read or write that makes no progress for this long fails, and timed_out() tells why.
  void set_timeout(int timeout_ms);
  bool timed_out() const { return timed_out_; }

  bool handshake();
  // Blocks until some bytes arrive; 0 means the peer closed, the connection broke, timed out or was
  // interrupted.
  std::size_t read_some(std::span<std::byte> out);
  // Waits out a pending response delay (set_response_delay) first.
  bool write_all(std::span<const std::byte> data);
  bool write_all(std::string_view text) {
    return write_all(std::as_bytes(std::span(text.data(), text.size())));
  }
  // The interim response a client that sent "Expect: 100-continue" waits for before sending its body;
  // nothing under set_ignore_expect. Never delayed: it is not the answer.
  bool send_continue();

  // Fault injection (fault_injector.h) for the request being served; the server turns both off after it.
  void set_ignore_expect(bool ignore) { ignore_expect_ = ignore; }
  // The next write_all (the response) first waits this long.
  void set_response_delay(std::chrono::milliseconds delay) { response_delay_ = delay; }
  // Sleeps until `until`; returns early, false, once interrupt() was called.
  bool sleep_until(std::chrono::steady_clock::time_point until);
  // Ends the connection with a TCP RST (SO_LINGER 0, then close) instead of an orderly FIN.
  void reset();

  // After an error answered before the body was read: stop writing, then read and drop what the client is
  // still sending (bounded) so that it sees our response instead of a connection reset.
  void linger_close(std::uint64_t max_bytes, int timeout_ms);
  // From any thread (Server::stop): wakes a blocked read or write; the owner thread then ends.
  void interrupt();
  void close();

 private:
  struct SslDeleter {
    void operator()(ssl_st* ssl) const;
  };

  std::mutex fd_mutex_;  // interrupt() may run while the owner thread closes the descriptor
  UniqueFd fd_;
  bool tls_;
  std::unique_ptr<ssl_st, SslDeleter> ssl_;
  std::atomic<bool> interrupted_{false};
  bool timed_out_ = false;
  bool ignore_expect_ = false;
  std::chrono::milliseconds response_delay_{0};

  bool write_bytes(std::span<const std::byte> data);
};

// A fixed read buffer over a Connection. Large body reads bypass it (see read()).
class BufferedReader {
 public:
  BufferedReader(Connection& connection, std::size_t capacity);

  std::span<const std::byte> buffered() const { return {buffer_.get() + begin_, end_ - begin_}; }
  void consume(std::size_t n) {
    begin_ += n;
    consumed_ += n;
    if (bytes_per_second_ > 0) pace(n);
  }
  // Reads more bytes after the buffered ones (moving them to the front first). False on EOF, error or full.
  bool fill();
  // Reads up to out.size() body bytes: buffered bytes first, else straight from the connection.
  std::size_t read(std::span<std::byte> out);
  std::size_t capacity() const { return capacity_; }
  Connection& connection() { return connection_; }

  enum class LineStatus { ok, closed, too_long };
  // The next CRLF- or LF-terminated line without its terminator; valid until the next call on the reader.
  LineStatus read_line(std::size_t max_length, std::string_view& line);

  // Bytes handed out so far (head and body, as they came on the wire), to count a body's raw bytes.
  std::uint64_t consumed() const { return consumed_; }
  // Fault injection (Fault::Kind::slow_read): from now on, hand out and read from the socket no more than
  // bytes_per_second on average (0: no limit), so that the client's sending stalls behind TCP flow control.
  void throttle(std::uint64_t bytes_per_second);

 private:
  void pace(std::size_t n);
  std::size_t socket_read_limit() const;

  Connection& connection_;
  std::unique_ptr<std::byte[]> buffer_;
  std::size_t capacity_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::uint64_t consumed_ = 0;
  std::uint64_t bytes_per_second_ = 0;
  std::uint64_t paced_bytes_ = 0;
  std::chrono::steady_clock::time_point pace_start_{};
};

}  // namespace s3up::mock
