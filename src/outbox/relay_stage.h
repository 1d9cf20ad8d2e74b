// A stage of a pipelined relay (docket/outbox/relay.h): a thread of its own that runs
// one job at a time, so that the relay's thread goes on meanwhile. The relay has two:
// one publishes batch k through the transport, one records batch k-1's results in the
// store, while the relay's own thread claims batch k+1.
//
// Invariants: at most one job is handed over and not yet answered; every handed job is
// answered exactly once by result() (what the work returned, or what it threw), unless
// the stage is destroyed first.
//
// Thread-safety: start() and result() are called by one thread, the owner's, which
// alternates them (start, result, start, ...). Destruction waits for a job in progress
// to end (neither a transport nor a store can be interrupted) and runs nothing more.
#ifndef DOCKET_SRC_OUTBOX_RELAY_STAGE_H_
#define DOCKET_SRC_OUTBOX_RELAY_STAGE_H_

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <utility>

namespace docket::detail {

template <class Job, class Result>
class RelayStage {
 public:
  // Starts the stage's thread, which runs `work` on each job handed to it; `work` and
  // what it refers to must outlive the stage.
  explicit RelayStage(std::function<Result(Job&)> work)
      : work_(std::move(work)), thread_([this](std::stop_token stop) { serve(std::move(stop)); }) {}

  RelayStage(const RelayStage&) = delete;
  RelayStage& operator=(const RelayStage&) = delete;

  // Hands `job` to the stage's thread and returns at once. Throws std::logic_error when
  // the job handed before has not been answered by result() yet.
  void start(Job job) {
    {
      std::lock_guard lock(mutex_);
      if (handed_) {
        throw std::logic_error("relay stage: a job was handed over before the last one's result");
      }
      handed_ = true;
      job_ = std::move(job);
    }
    changed_.notify_all();
  }

  bool busy() const {
    std::lock_guard lock(mutex_);
    return handed_;
  }

  // Waits for the handed job to end: what the work returned, or what it threw, rethrown
  // here. Throws std::logic_error when no job was handed.
  Result result() {
    std::unique_lock lock(mutex_);
    if (!handed_) {
      throw std::logic_error("relay stage: result() without a job handed over");
    }
    changed_.wait(lock, [this] { return answer_.has_value() || failure_ != nullptr; });
    handed_ = false;
    if (failure_ != nullptr) {
      std::rethrow_exception(std::exchange(failure_, nullptr));
    }
    Result answer = std::move(*answer_);
    answer_.reset();
    return answer;
  }

 private:
  void serve(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, stop, [this] { return job_.has_value(); });
      if (stop.stop_requested()) {
        return;  // the owner is going: no one would take what is done now
      }
      Job job = std::move(*job_);
      job_.reset();
      lock.unlock();
      std::optional<Result> answer;
      std::exception_ptr failure;
      try {
        answer = work_(job);
      } catch (...) {
        failure = std::current_exception();
      }
      lock.lock();
      answer_ = std::move(answer);
      failure_ = failure;
      changed_.notify_all();
    }
  }

  std::function<Result(Job&)> work_;
  mutable std::mutex mutex_;
  std::condition_variable_any changed_;
  bool handed_ = false;           // a job awaits its result()
  std::optional<Job> job_;        // not taken by the thread yet
  std::optional<Result> answer_;  // the answer, when in
  std::exception_ptr failure_;    // or this, when the work threw
  // Last: started once the members it uses exist, stopped and joined before they go.
  std::jthread thread_;
};

}  // namespace docket::detail

#endif  // DOCKET_SRC_OUTBOX_RELAY_STAGE_H_
