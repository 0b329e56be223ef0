// cli/interrupt_watcher.cpp: the SIGINT watcher thread (sigwait) behind Ctrl-C cancellation.
#include "interrupt_watcher.h"

#include <pthread.h>

#include <cstdlib>
#include <utility>

#include "commands.h"

namespace s3up::cli {
namespace {

sigset_t interrupt_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

InterruptWatcher::InterruptWatcher(std::function<void()> on_interrupt)
    : on_interrupt_(std::move(on_interrupt)) {
  const sigset_t set = interrupt_set();
  pthread_sigmask(SIG_BLOCK, &set, &previous_mask_);
  thread_ = std::thread([this] { watch(); });
}

InterruptWatcher::~InterruptWatcher() {
  stopping_.store(true);
  // Wakes the watcher's sigwait; it sees stopping_ and returns. Directed at that thread, so no other thread
  // (all have SIGINT blocked) is disturbed.
  pthread_kill(thread_.native_handle(), SIGINT);
  thread_.join();
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void InterruptWatcher::watch() {
  const sigset_t set = interrupt_set();
  for (;;) {
    int signal_number = 0;
    if (sigwait(&set, &signal_number) != 0) continue;
    if (stopping_.load()) return;
    if (interrupted_.exchange(true)) std::_Exit(exit_interrupted);
    on_interrupt_();
  }
}

}  // namespace s3up::cli
