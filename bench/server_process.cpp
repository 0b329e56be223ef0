// bench/server_process.cpp: see server_process.h. posix_spawn with the child's stdout on a pipe.
#include "server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace s3up::bench {
namespace {

// The argv/envp arrays posix_spawn wants, pointing into strings that outlive the call.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

std::uint64_t status_kib(pid_t pid, const std::string& field) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::strtoull(line.c_str() + field.size() + 1, nullptr, 10);
  }
  return 0;
}

struct Spawned {
  pid_t pid;
  int stdout_fd;
};

Spawned spawn(std::vector<std::string> argv, std::vector<std::string> environment, const std::string& log) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  if (!log.empty())
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  std::vector<char*> args = c_strings(argv);
  std::vector<char*> env = c_strings(environment);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (error != 0) {
    close(pipe_fds[0]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  }
  return {pid, pipe_fds[0]};
}

std::vector<std::string> current_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) environment.emplace_back(*e);
  environment.insert(environment.end(), extra.begin(), extra.end());
  return environment;
}

}  // namespace

ServerProcess::ServerProcess(const std::string& cli_path, const std::vector<std::string>& arguments,
                             const std::string& log_path) {
  std::vector<std::string> argv = {cli_path, "serve"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const Spawned child = spawn(argv, current_environment({}), log_path);
  pid_ = child.pid;
  stdout_fd_ = child.stdout_fd;
  // The first line is exactly "listening on <URL>".
  std::string line;
  char c;
  while (read(stdout_fd_, &c, 1) == 1 && c != '\n') line += c;
  const std::string prefix = "listening on ";
  if (line.rfind(prefix, 0) != 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    close(stdout_fd_);
    throw std::runtime_error("s3up serve did not start (see " + log_path + ")");
  }
  url_ = line.substr(prefix.size());
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  if (stdout_fd_ >= 0) close(stdout_fd_);
}

std::uint64_t ServerProcess::rss_kib() const {
  return status_kib(pid_, "VmRSS");
}
std::uint64_t ServerProcess::peak_rss_kib() const {
  return status_kib(pid_, "VmHWM");
}

ChildRun run_child(const std::vector<std::string>& argv, const std::vector<std::string>& extra_environment) {
  const auto start = std::chrono::steady_clock::now();
  const Spawned child = spawn(argv, current_environment(extra_environment), "");
  ChildRun run;
  char buffer[4096];
  ssize_t n;
  while ((n = read(child.stdout_fd, buffer, sizeof buffer)) > 0) run.standard_output.append(buffer, n);
  close(child.stdout_fd);
  int status = 0;
  struct rusage usage {};
  wait4(child.pid, &status, 0, &usage);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.max_rss_kib = usage.ru_maxrss;
  return run;
}

}  // namespace s3up::bench
