// tests/support/subprocess.h: runs the s3up command as a child process for the CLI tests: capture its output
// and exit code, or keep a long-running one (s3up serve) and read its first line.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace s3up::test {

struct ProcessOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// The environment of this process with changes applied: a value sets, an empty optional-like "" keeps the
// variable but empty; names in `unset` are removed.
inline std::vector<std::string> make_environment(const std::map<std::string, std::string>& set,
                                                 const std::vector<std::string>& unset = {}) {
  std::vector<std::string> result;
  for (char** entry = environ; *entry; ++entry) {
    std::string text = *entry;
    std::string name = text.substr(0, text.find('='));
    bool drop = set.count(name) != 0;
    for (const auto& u : unset) drop = drop || u == name;
    if (!drop) result.push_back(text);
  }
  for (const auto& [name, value] : set) result.push_back(name + "=" + value);
  return result;
}

class Subprocess {
 public:
  Subprocess(const std::vector<std::string>& argv, const std::vector<std::string>& environment) {
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args, env;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (const auto& e : environment) env.push_back(const_cast<char*>(e.c_str()));
    env.push_back(nullptr);
    const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    close(err_pipe[1]);
    out_fd_ = out_pipe[0];
    err_fd_ = err_pipe[0];
    if (rc != 0) throw std::runtime_error("posix_spawn " + argv[0] + " failed");
  }
  ~Subprocess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(out_fd_);
    close(err_fd_);
  }
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // The first line the child writes on stdout (without the newline), waiting at most `timeout`.
  std::string read_line(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (out_.find('\n') == std::string::npos) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !read_some(out_fd_, out_, static_cast<int>(left.count()))) break;
    }
    const auto newline = out_.find('\n');
    std::string line = out_.substr(0, newline);
    out_.erase(0, newline == std::string::npos ? out_.size() : newline + 1);
    return line;
  }

  void signal(int number) { kill(pid_, number); }

  // Reads everything until the child exits and returns its output and exit code (128 + signal if killed).
  ProcessOutput wait() {
    ProcessOutput result;
    bool out_open = true, err_open = true;
    while (out_open || err_open) {
      pollfd fds[2] = {{out_fd_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
      if (poll(fds, 2, 120'000) <= 0) break;
      if (out_open && fds[0].revents) out_open = read_some(out_fd_, out_, 0);
      if (err_open && fds[1].revents) err_open = read_some(err_fd_, err_, 0);
    }
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = std::move(out_);
    result.err = std::move(err_);
    return result;
  }

 private:
  static bool read_some(int fd, std::string& into, int timeout_ms) {
    if (timeout_ms > 0) {
      pollfd pfd{fd, POLLIN, 0};
      if (poll(&pfd, 1, timeout_ms) <= 0) return false;
    }
    char buffer[4096];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n <= 0) return false;
    into.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string out_;
  std::string err_;
};

inline ProcessOutput run_process(const std::vector<std::string>& argv,
                                 const std::vector<std::string>& environment) {
  Subprocess process(argv, environment);
  return process.wait();
}

// Whether the shell finds `name` on this process's PATH: the tests that need an independent tool (python3,
// script) check for it first and say they are skipped without it. The name goes as $1, never into the script.
inline bool have_program(const std::string& name) {
  return run_process({"/bin/sh", "-c", "command -v \"$1\" >/dev/null", "sh", name}, make_environment({}))
             .exit_code == 0;
}

}  // namespace s3up::test
