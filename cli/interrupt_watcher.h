// cli/interrupt_watcher.h: Ctrl-C during a long command. SIGINT is blocked in every thread and taken by one
// watcher thread with sigwait, so the reaction (Client::cancel) runs as ordinary code, not in a signal
// handler, where almost nothing is async-signal-safe.
#pragma once

#include <signal.h>

#include <atomic>
#include <functional>
#include <thread>

namespace s3up::cli {

class InterruptWatcher {
 public:
  // Blocks SIGINT in this thread, and so in every thread started after it (curl's resolver threads
  // included), then watches for it. on_interrupt runs on the watcher thread at the first SIGINT; a second
  // one ends the process at once with exit code 130, for a user who does not want to wait.
  explicit InterruptWatcher(std::function<void()> on_interrupt);
  ~InterruptWatcher();  // stops the watcher and restores the signal mask
  InterruptWatcher(const InterruptWatcher&) = delete;
  InterruptWatcher& operator=(const InterruptWatcher&) = delete;

 private:
  void watch();

  std::function<void()> on_interrupt_;
  sigset_t previous_mask_{};
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace s3up::cli
