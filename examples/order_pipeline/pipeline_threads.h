// What the order pipeline's runners (the demo, `docket soak`, `docket chaos`'s
// workers) need around their threads: the first exception any of them threw, kept for
// the thread that waits on them, and a wait that a stop request cuts short.
//
// Thread-safety: ThreadFailure's guard() bodies may run on many threads at once;
// rethrow_if_any() from any thread. wait_until() blocks only its caller.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_PIPELINE_THREADS_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_PIPELINE_THREADS_H_

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stop_token>
#include <utility>

namespace docket::examples {

// The first exception any guarded thread body threw, rethrown on the waiting thread.
class ThreadFailure {
 public:
  // `body(std::stop_token)` wrapped to keep its exception instead of terminating.
  template <class F>
  auto guard(F body) {
    return [this, body = std::move(body)](std::stop_token stop) {
      try {
        body(stop);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) {
          error_ = std::current_exception();
        }
      }
    };
  }

  void rethrow_if_any() {
    std::lock_guard lock(mutex_);
    if (error_) {
      std::rethrow_exception(error_);
    }
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
};

// Waits until `deadline` or a stop request on `stop`, whichever comes first.
inline void wait_until(std::chrono::steady_clock::time_point deadline, std::stop_token stop) {
  std::mutex mutex;
  std::condition_variable_any woken;
  std::unique_lock lock(mutex);
  woken.wait_until(lock, stop, deadline, [] { return false; });
}

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_PIPELINE_THREADS_H_
