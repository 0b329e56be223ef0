// maxrss_exec.cpp: `maxrss_exec REPORT_FILE PROGRAM ARGS...` runs PROGRAM as its child and writes the child's
// wait4 rusage ("ru_maxrss_kib=N exit=N") to REPORT_FILE, as /usr/bin/time -v does. It exists because Linux
// carries the parent's peak RSS into a child's ru_maxrss across fork+exec (exec folds the old mm's high-water
// mark into the process's maxrss): measured straight from the benchmark, whose own RSS is larger than the
// client's, ru_maxrss would report the benchmark's peak. This tiny program's RSS is the floor instead.
// MAXRSS_EXEC_PRELOAD, if set, becomes the child's LD_PRELOAD (so a preloaded counter sees only the child).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: maxrss_exec REPORT_FILE PROGRAM [ARGS...]\n");
    return 2;
  }
  const pid_t pid = fork();
  if (pid < 0) return 127;
  if (pid == 0) {
    if (const char* preload = std::getenv("MAXRSS_EXEC_PRELOAD")) setenv("LD_PRELOAD", preload, 1);
    execv(argv[2], argv + 2);
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (wait4(pid, &status, 0, &usage) != pid) return 127;
  const int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (std::FILE* report = std::fopen(argv[1], "w")) {
    std::fprintf(report, "ru_maxrss_kib=%ld exit=%d\n", usage.ru_maxrss, exit_code);
    std::fclose(report);
  }
  return exit_code;
}
