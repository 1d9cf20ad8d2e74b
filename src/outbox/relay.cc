#include "docket/outbox/relay.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "docket/core/uuid.h"
#include "docket/outbox/backoff.h"

namespace docket {
namespace {

TransportMessage to_transport_message(const OutboxRecord& row) {
  return TransportMessage{.tenant = row.tenant,
                          .envelope = to_envelope(row),
                          .destination = std::string(destination_of(row)),
                          .ordering_key = row.ordering_key,
                          .headers = row.headers};
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
  if (rows.empty()) {
    return pass;
  }
  std::vector<TransportMessage> batch;
  batch.reserve(rows.size());
  for (const OutboxRecord& row : rows) {
    batch.push_back(to_transport_message(row));
  }
  // One batch, one result a message (in claim order): a key's messages reach the
  // transport in sequence order, and it confirms none after one of its key it did not.
  const std::vector<PublishResult> results = transport_.publish_batch(batch);
  // Confirmed rows are marked done together after the batch: one request, not one a
  // row. A crash before the marks republishes them, as at-least-once delivery allows.
  std::vector<std::string> published;
  published.reserve(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const OutboxRecord& row = rows[i];
    const PublishResult& result = results[i];
    if (result.is_confirmed()) {
      published.push_back(row.id);
      continue;
    }
    const int attempt = row.attempts + 1;
    const bool refused = result.status == PublishStatus::kRefused;
    FailedAttempt failed{.error = (refused ? "refused for good by the transport, parked at once: "
                                           : std::string(to_string(result.status)) + ": ") +
                                  result.error,
                         .park = refused || attempt >= s.max_attempts};
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
