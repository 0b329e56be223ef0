// connection.h: one accepted client connection, plain TCP or TLS, behind one blocking read/write interface,
// and the read buffer that the HTTP head parser and the body readers share.
#pragma once

#include <atomic>
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
  bool write_all(std::span<const std::byte> data);
  bool write_all(std::string_view text) {
    return write_all(std::as_bytes(std::span(text.data(), text.size())));
  }

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
};

// A fixed read buffer over a Connection. Large body reads bypass it (see read()).
class BufferedReader {
 public:
  BufferedReader(Connection& connection, std::size_t capacity);

  std::span<const std::byte> buffered() const { return {buffer_.get() + begin_, end_ - begin_}; }
  void consume(std::size_t n) { begin_ += n; }
  // Reads more bytes after the buffered ones (moving them to the front first). False on EOF, error or full.
  bool fill();
  // Reads up to out.size() body bytes: buffered bytes first, else straight from the connection.
  std::size_t read(std::span<std::byte> out);
  std::size_t capacity() const { return capacity_; }
  Connection& connection() { return connection_; }

  enum class LineStatus { ok, closed, too_long };
  // The next CRLF- or LF-terminated line without its terminator; valid until the next call on the reader.
  LineStatus read_line(std::size_t max_length, std::string_view& line);

 private:
  Connection& connection_;
  std::unique_ptr<std::byte[]> buffer_;
  std::size_t capacity_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
};

}  // namespace s3up::mock
