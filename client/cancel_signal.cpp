// cancel_signal.cpp: the sticky cancel flag and the backoff wait that wakes on it.
#include "client/cancel_signal.h"

namespace s3up {

void CancelSignal::cancel() {
  {
    std::lock_guard lock(mutex_);
    flag_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
}

void CancelSignal::reset() {
  std::lock_guard lock(mutex_);
  flag_.store(false, std::memory_order_release);
}

bool CancelSignal::sleep_for(std::chrono::milliseconds delay) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, delay, [this] { return flag_.load(std::memory_order_acquire); });
}

}  // namespace s3up
