// client/cancel_signal.h: Client::cancel()'s state: a sticky flag that curl's progress callback polls and a
// backoff wait wakes on at once. The only part of a Client that other threads may touch.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace s3up {

class CancelSignal {
 public:
  void cancel();
  void reset();
  bool cancelled() const { return flag_.load(std::memory_order_acquire); }
  // What curl's XFERINFOFUNCTION reads: a plain atomic load, nothing that could block inside curl.
  const std::atomic<bool>& flag() const { return flag_; }

  // Sleeps for delay, or less when cancel() is called meanwhile (or already was). False when cancelled.
  bool sleep_for(std::chrono::milliseconds delay);

 private:
  std::atomic<bool> flag_{false};
  // The flag is set under the mutex too, so that a cancel() between the waiter's check and its wait cannot
  // be missed (the classic lost wake-up).
  std::mutex mutex_;
  std::condition_variable wake_;
};

}  // namespace s3up
