#include "docket/outbox/relay.h"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "docket/core/uuid.h"
#include "docket/outbox/backoff.h"

namespace docket {
namespace {

std::string describe(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "a non-standard exception";
  }
}

}  // namespace

Relay::Relay(OutboxStore& store, Transport& transport, RelayOptions options, const Clock& clock)
    : store_(store), transport_(transport), options_(std::move(options)), clock_(clock) {}

RelayPass Relay::run_once() {
  const auto& s = options_.settings();
  const std::string token = Uuid::v4().to_string();
  const Timestamp now = clock_.now();
  const auto rows = store_.claim(token, now, now + s.lease, s.batch_size);
  RelayPass pass{.claimed = rows.size()};
  // Published rows are marked done together after the batch: one request, not one a
  // row. A crash before the marks republishes them, as at-least-once delivery allows.
  std::vector<std::string> published;
  published.reserve(rows.size());
  for (const OutboxRecord& row : rows) {
    std::exception_ptr failure;
    try {
      transport_.publish(TransportMessage{row.tenant, to_envelope(row)});
    } catch (...) {
      failure = std::current_exception();  // recorded on the row, retried later
    }
    if (!failure) {
      published.push_back(row.id);
      continue;
    }
    const int attempt = row.attempts + 1;
    FailedAttempt failed{.error = describe(failure), .park = attempt >= s.max_attempts};
    if (!failed.park) {
      failed.next_attempt_at = clock_.now() + retry_delay(options_, row.id, attempt);
    }
    if (!store_.fail(row.id, token, failed)) {
      ++pass.lost_leases;
    } else if (failed.park) {
      ++pass.parked;
    } else {
      ++pass.retried;
    }
  }
  if (!published.empty()) {
    pass.published = store_.complete_all(published, token, clock_.now());
    pass.lost_leases += published.size() - pass.published;
  }
  published_ += pass.published;
  retried_ += pass.retried;
  parked_ += pass.parked;
  return pass;
}

void Relay::run(std::stop_token stop) {
  std::mutex mutex;
  std::condition_variable_any wake;
  while (!stop.stop_requested()) {
    if (run_once().claimed > 0) {
      continue;
    }
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, options_.settings().poll_interval, [] { return false; });
  }
}

RelayStats Relay::stats() const noexcept {
  return RelayStats{published_.load(), retried_.load(), parked_.load()};
}

}  // namespace docket
