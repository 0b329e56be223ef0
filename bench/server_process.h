// bench/server_process.h: the mock S3 server as a child process (`s3up serve`), so that the benchmark's
// client-side memory and allocation figures are the client's own. Stopped with SIGTERM on destruction.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace s3up::bench {

class ServerProcess {
 public:
  // Starts `cli_path serve <arguments>` and waits for its "listening on <URL>" line. stderr goes to log_path.
  // Throws std::runtime_error if it does not start.
  ServerProcess(const std::string& cli_path, const std::vector<std::string>& arguments,
                const std::string& log_path);
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const std::string& url() const { return url_; }
  pid_t pid() const { return pid_; }
  // The server's current and peak resident memory (VmRSS, VmHWM of its /proc entry), in KiB.
  std::uint64_t rss_kib() const;
  std::uint64_t peak_rss_kib() const;

 private:
  pid_t pid_ = -1;
  int stdout_fd_ = -1;  // kept open: a later write to stdout must not die of SIGPIPE
  std::string url_;
};

// fork+exec of argv with extra environment entries, waiting for the exit. Returns the wait4 figures.
struct ChildRun {
  int exit_status = -1;         // exit code, or -1 when killed by a signal
  long max_rss_kib = 0;         // ru_maxrss
  double seconds = 0;           // wall time from fork to reaped
  std::string standard_output;  // everything it wrote to stdout
};
ChildRun run_child(const std::vector<std::string>& argv, const std::vector<std::string>& extra_environment);

}  // namespace s3up::bench
