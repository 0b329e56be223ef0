// server.cpp: the Server's lifetime: start (TLS identity, store, listener), the accept loop with one thread
// per connection (each request meets the next injected fault, if any), stop() and the views tests use.
#include <signal.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <fstream>
#include <list>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "connection.h"
#include "fault_injector.h"
#include "http_request.h"
#include "listener.h"
#include "object_store.h"
#include "s3_handler.h"
#include "s3up/mock_server.h"
#include "tls.h"

namespace s3up::mock {

namespace {

constexpr std::size_t connection_buffer_size = 256 * 1024;

}  // namespace

struct Server::Impl {
  struct Slot {
    std::shared_ptr<Connection> connection;
    std::shared_ptr<std::atomic<bool>> finished;
    std::thread thread;
  };

  ServerOptions options;
  std::shared_ptr<spdlog::logger> logger;
  std::unique_ptr<TlsContext> tls;
  std::unique_ptr<ObjectStore> store;
  ServerCounters counters;
  std::unique_ptr<S3Handler> handler;
  FaultQueue faults;
  std::unique_ptr<Listener> listener;
  std::string url;
  std::string no_certificate;

  std::atomic<bool> stopping{false};
  std::mutex stop_mutex;  // one stop() at a time; the second finds everything joined
  std::thread accept_thread;
  std::mutex slots_mutex;
  std::list<Slot> slots;

  void accept_loop();
  void serve(Connection& connection);
  void reap_finished();
};

void Server::Impl::accept_loop() {
  // Writing to a socket the client closed raises SIGPIPE; SSL_write cannot pass MSG_NOSIGNAL. Blocking it
  // here covers every connection thread, which inherit this mask, without touching the process's handlers.
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);

  while (!stopping) {
    UniqueFd client = listener->accept();
    if (!client) {
      if (!stopping) logger->error("mock S3 server: accept failed; no longer accepting connections");
      break;
    }
    reap_finished();
    auto connection = std::make_shared<Connection>(std::move(client), tls ? tls->get() : nullptr);
    if (options.idle_timeout_ms > 0) connection->set_timeout(options.idle_timeout_ms);
    auto finished = std::make_shared<std::atomic<bool>>(false);
    std::lock_guard lock(slots_mutex);
    if (stopping) break;
    std::thread thread;
    try {
      thread = std::thread([this, connection, finished] {
        serve(*connection);
        *finished = true;
      });
    } catch (const std::system_error& e) {
      // Out of threads: this client finds its connection closed, the server goes on.
      logger->error("mock S3 server: cannot start a connection thread: {}", e.what());
      continue;
    }
    slots.push_back({connection, finished, std::move(thread)});
  }
}

void Server::Impl::serve(Connection& connection) {
  try {
    if (!connection.handshake()) {
      logger->debug("mock S3 server: TLS handshake failed");
      connection.close();
      return;
    }
    BufferedReader reader(connection, connection_buffer_size);
    auto scratch = std::make_unique_for_overwrite<std::byte[]>(connection_buffer_size);
    while (!stopping) {
      HttpRequest request;
      HeadStatus status = read_request_head(reader, request);
      if (status == HeadStatus::closed) break;
      if (status != HeadStatus::ok) {
        handler->reject_head(status, reader);
        break;
      }
      std::span<std::byte> scratch_span(scratch.get(), connection_buffer_size);
      std::optional<Fault> fault = faults.pick(request.method);
      if (fault) {
        logger->info("mock S3 server: injected fault {} hits {} {}", fault_kind_name(fault->kind),
                     request.method, request.raw_path);
        if (!serve_with_fault(*handler, *fault, request, reader, scratch_span)) break;
      } else if (!handler->serve(request, reader, scratch_span)) {
        break;
      }
    }
  } catch (const std::exception& e) {
    logger->error("mock S3 server: connection failed: {}", e.what());
  }
  connection.close();
}

void Server::Impl::reap_finished() {
  std::list<Slot> done;
  {
    std::lock_guard lock(slots_mutex);
    for (auto it = slots.begin(); it != slots.end();) {
      auto next = std::next(it);
      if (*it->finished) done.splice(done.end(), slots, it);
      it = next;
    }
  }
  for (auto& slot : done) slot.thread.join();
}

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& impl = *impl_;
  impl.options = std::move(options);
  impl.logger = impl.options.logger ? impl.options.logger : spdlog::default_logger();
  if (impl.options.tls) {
    impl.tls = std::make_unique<TlsContext>();
    if (!impl.options.cert_out.empty()) {
      std::ofstream out(impl.options.cert_out, std::ios::binary | std::ios::trunc);
      out << impl.tls->certificate_pem();
      if (!out.flush()) throw std::runtime_error("mock S3 server: cannot write " + impl.options.cert_out);
    }
  }
  impl.store = impl.options.data_dir.empty() ? make_memory_store() : make_disk_store(impl.options.data_dir);
  impl.listener = std::make_unique<Listener>(impl.options.listen_host, impl.options.port);
  std::string host = impl.options.listen_host;
  if (impl.listener->ipv6() && host.find(':') != std::string::npos) host = "[" + host + "]";
  impl.url =
      std::string(impl.tls ? "https://" : "http://") + host + ":" + std::to_string(impl.listener->port());
  impl.handler = std::make_unique<S3Handler>(impl.options, *impl.store, impl.counters, *impl.logger);
  impl.accept_thread = std::thread([&impl] { impl.accept_loop(); });
  impl.logger->info("mock S3 server listening on {}{}", impl.url,
                    impl.options.data_dir.empty() ? "" : " (data in " + impl.options.data_dir + ")");
}

Server::~Server() {
  stop();
}

void Server::stop() {
  Impl& impl = *impl_;
  std::lock_guard stop_lock(impl.stop_mutex);
  impl.stopping = true;
  impl.listener->wake();
  if (impl.accept_thread.joinable()) impl.accept_thread.join();
  std::list<Impl::Slot> slots;
  {
    std::lock_guard lock(impl.slots_mutex);
    slots.swap(impl.slots);
  }
  // Idle keep-alive connections sit in a blocking read: shutting the socket down wakes them.
  for (auto& slot : slots) slot.connection->interrupt();
  for (auto& slot : slots) slot.thread.join();
}

std::string Server::url() const {
  return impl_->url;
}
std::uint16_t Server::port() const {
  return impl_->listener->port();
}
const std::string& Server::certificate_pem() const {
  return impl_->tls ? impl_->tls->certificate_pem() : impl_->no_certificate;
}
const ServerOptions& Server::options() const {
  return impl_->options;
}

std::optional<StoredObject> Server::object(const std::string& bucket, const std::string& key) const {
  return impl_->store->head(bucket, key);
}

std::optional<std::vector<std::byte>> Server::object_data(const std::string& bucket,
                                                          const std::string& key) const {
  auto content = impl_->store->get(bucket, key);
  if (!content) return std::nullopt;
  if (!content->memory.empty()) {
    std::vector<std::byte> data;
    data.reserve(static_cast<std::size_t>(content->meta.size));
    for (const auto& segment : content->memory) {
      auto bytes = segment->bytes();
      data.insert(data.end(), bytes.begin(), bytes.end());
    }
    return data;
  }
  std::vector<std::byte> data(static_cast<std::size_t>(content->meta.size));
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::read(content->file.get(), data.data() + done, data.size() - done);
    if (n <= 0) return std::nullopt;
    done += static_cast<std::size_t>(n);
  }
  return data;
}

std::size_t Server::object_count() const {
  return impl_->store->object_count();
}

ServerStats Server::stats() const {
  ServerStats stats;
  stats.requests = impl_->counters.requests;
  stats.rejected = impl_->counters.rejected;
  stats.body_bytes = impl_->counters.body_bytes;
  return stats;
}

std::size_t Server::multipart_upload_count() const {
  return impl_->handler->multipart_upload_count();
}

std::string Server::last_error_code() const {
  std::lock_guard lock(impl_->counters.mutex);
  return impl_->counters.last_error_code;
}

void Server::inject_fault(Fault fault) {
  impl_->faults.push(std::move(fault));
}

void Server::clear_faults() {
  impl_->faults.clear();
}

std::size_t Server::pending_faults() const {
  return impl_->faults.pending();
}

}  // namespace s3up::mock
