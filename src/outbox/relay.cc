#include "docket/outbox/relay.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/idle_wait.h"
#include "core/observing.h"
#include "docket/core/utf8.h"
#include "docket/core/uuid.h"
#include "docket/outbox/backoff.h"
#include "outbox/chunked_publish.h"
#include "outbox/relay_stage.h"

namespace docket {
namespace {

// The message to publish for a claimed row. What only the message needs (the payload,
// the lineage, the ordering key and the headers) moves out of the row; what the
// record and the observer's spans read afterwards (the id, type, tenant, trace
// context, destination and attempts) is copied.
TransportMessage take_transport_message(OutboxRecord& row) {
  return TransportMessage{.tenant = row.tenant,
                          .envelope = Envelope{.message_id = row.id,
                                               .event_type = row.event_type,
                                               .payload = std::move(row.payload),
                                               .occurred_at = row.occurred_at,
                                               .source = std::move(row.source),
                                               .causation_id = std::move(row.causation_id),
                                               .correlation_id = std::move(row.correlation_id),
                                               .traceparent = row.traceparent,
                                               .tracestate = row.tracestate},
                          .destination = std::string(destination_of(row)),
                          .ordering_key = std::move(row.ordering_key),
                          .headers = std::move(row.headers)};
}

void add(RelayPass& totals, const RelayPass& pass) {
  totals.claimed += pass.claimed;
  totals.published += pass.published;
  totals.retried += pass.retried;
  totals.parked += pass.parked;
  totals.lost_leases += pass.lost_leases;
  totals.batches += pass.batches;
  totals.expired_unpublished += pass.expired_unpublished;
}

// A claim's messages, in chunks of the publish batch size (RelaySettings).
detail::ChunkedPublish publish_claimed(Transport& transport, const RelaySettings& s,
                                       std::span<const TransportMessage> messages) {
  const std::size_t chunk = s.publish_batch_size == 0 ? s.batch_size : s.publish_batch_size;
  return detail::publish_in_chunks(transport, messages, chunk);
}

}  // namespace

// Rows claimed under one token, and the messages to publish for them (rows[i] is
// published as messages[i]; a pipeline moves the messages to its publishing stage).
struct Relay::ClaimedBatch {
  std::string token{};
  Timestamp lease_until{};
  std::vector<OutboxRecord> rows{};
  std::vector<TransportMessage> messages{};
  // With an observer, spans[i] is rows[i]'s, begun before the publish (views into
  // rows, whose elements stay put when the batch moves); empty without one.
  std::vector<detail::MessageSpan> spans{};
};

Relay::Relay(OutboxStore& store, Transport& transport, RelayOptions options, const Clock& clock)
    : store_(store),
      transport_(transport),
      options_(std::move(options)),
      clock_(clock),
      staged_(options_.settings().wake_ups ? store.staged_signal() : nullptr) {}

Relay::ClaimedBatch Relay::claim(std::size_t limit) {
  ClaimedBatch batch{.token = Uuid::v4().to_string()};
  const Timestamp now = clock_.now();
  batch.lease_until = now + options_.settings().lease;
  batch.rows = store_.claim(batch.token, now, batch.lease_until, limit);
  ++claims_;
  batch.messages.reserve(batch.rows.size());
  for (OutboxRecord& row : batch.rows) {
    batch.messages.push_back(take_transport_message(row));
  }
  return batch;
}

void Relay::begin_spans(ClaimedBatch& batch) const {
  Observer* observer = options_.observer().get();
  if (observer == nullptr) {
    return;
  }
  batch.spans.reserve(batch.rows.size());
  for (const OutboxRecord& row : batch.rows) {
    batch.spans.emplace_back(observer, MessageStart{.role = MessageRole::kPublish,
                                                    .consumer_or_destination = destination_of(row),
                                                    .message_id = row.id,
                                                    .event_type = row.event_type,
                                                    .tenant = row.tenant,
                                                    .traceparent = row.traceparent,
                                                    .tracestate = row.tracestate,
                                                    .attempt = row.attempts + 1});
  }
}

RelayPass Relay::record(ClaimedBatch& batch, std::span<const PublishResult> results,
                        std::size_t publishes) {
  const auto& s = options_.settings();
  RelayPass pass{.claimed = batch.rows.size(), .batches = publishes};
  // Confirmed rows are marked done together after the batch: one request, not one a
  // row. A crash before the marks republishes them, as at-least-once delivery allows.
  std::vector<std::string> published;
  published.reserve(batch.rows.size());
  for (std::size_t i = 0; i < batch.rows.size(); ++i) {
    const OutboxRecord& row = batch.rows[i];
    const PublishResult& result = results[i];
    detail::MessageSpan* span = i < batch.spans.size() ? &batch.spans[i] : nullptr;
    if (result.is_confirmed()) {
      published.push_back(row.id);
      continue;
    }
    const int attempt = row.attempts + 1;
    const bool refused = result.status == PublishStatus::kRefused;
    // The transport's text as it came (a broker's reply may hold any bytes), escaped
    // where it is not UTF-8: a store of text would refuse the whole record otherwise.
    FailedAttempt failed{.error = (refused ? "refused for good by the transport, parked at once: "
                                           : std::string(to_string(result.status)) + ": ") +
                                  escape_invalid_utf8(result.error),
                         .park = refused || attempt >= s.max_attempts};
    if (!failed.park) {
      failed.next_attempt_at = clock_.now() + retry_delay(options_, row.id, attempt);
    }
    MessageOutcome outcome = MessageOutcome::kRetryScheduled;
    if (!store_.fail(row.id, batch.token, failed)) {
      ++pass.lost_leases;
      outcome = MessageOutcome::kLeaseLost;
    } else if (failed.park) {
      ++pass.parked;
      outcome = MessageOutcome::kParked;
    } else {
      ++pass.retried;
    }
    if (span != nullptr) {
      span->end(outcome, failed.error);
    }
  }
  if (!published.empty()) {
    pass.published = store_.complete_all(published, batch.token, clock_.now());
    pass.lost_leases += published.size() - pass.published;
  }
  // Confirmed messages' spans end once they are marked done (complete_all does not say
  // which of them lost their lease: all count as confirmed, the transport confirmed them).
  for (std::size_t i = 0; i < batch.spans.size(); ++i) {
    if (results[i].is_confirmed()) {
      batch.spans[i].end(MessageOutcome::kConfirmed);
    }
  }
  published_ += pass.published;
  retried_ += pass.retried;
  parked_ += pass.parked;
  return pass;
}

RelayPass Relay::run_once() {
  ClaimedBatch batch = claim(options_.settings().batch_size);
  if (batch.rows.empty()) {
    return RelayPass{};
  }
  begin_spans(batch);
  // One result a message (in claim order): a key's messages reach the transport in
  // sequence order, and it confirms none after one of its key it did not.
  const detail::ChunkedPublish published =
      publish_claimed(transport_, options_.settings(), batch.messages);
  return record(batch, published.results, published.calls);
}

RelayPass Relay::pipeline(std::stop_token stop, std::size_t max_messages, bool wait_when_idle) {
  // A batch, once published, with its results: what the recording stage takes.
  struct Published {
    ClaimedBatch batch;
    detail::ChunkedPublish publish;
  };
  const std::size_t batch_size = options_.settings().batch_size;
  // On a store with one writer at a time, a record beside a claim only queues behind it.
  const bool overlap_records = store_.capabilities().concurrent_writers;
  detail::RelayStage<std::vector<TransportMessage>, detail::ChunkedPublish> publisher(
      [this](std::vector<TransportMessage>& messages) {
        return publish_claimed(transport_, options_.settings(), messages);
      });
  detail::RelayStage<Published, RelayPass> recorder([this](Published& done) {
    return record(done.batch, done.publish.results, done.publish.calls);
  });
  RelayPass totals;
  std::size_t may_claim = max_messages;
  std::optional<ClaimedBatch> publishing;  // handed to the publisher, results not taken yet
  bool recording = false;                  // a batch handed to the recorder, pass not taken yet
  detail::IdleWait idle(options_.settings().poll_interval, options_.settings().max_poll_interval,
                        staged_);
  for (;;) {
    idle.before_poll();
    // Batch k+1 is claimed while batch k is published and batch k-1 recorded: the rows
    // of both are still leased, so their keys are held and k+1 holds no later message of
    // them (OutboxStore::claim).
    std::optional<ClaimedBatch> next;
    if (!stop.stop_requested() && may_claim > 0) {
      ClaimedBatch claimed = claim(std::min(batch_size, may_claim));
      if (!claimed.rows.empty()) {
        may_claim -= claimed.rows.size();
        next = std::move(claimed);
      }
    }
    std::optional<Published> done;
    if (publishing) {
      done = Published{std::move(*publishing), publisher.result()};
      publishing.reset();
    }
    const bool claimed_any = next.has_value();
    if (next) {
      if (clock_.now() < next->lease_until) {
        begin_spans(*next);
        publisher.start(std::move(next->messages));
        publishing = std::move(next);
      } else {
        // Its lease ended while it waited: another relay may hold its rows by now.
        totals.claimed += next->rows.size();
        totals.expired_unpublished += next->rows.size();
      }
    }
    // Batch k's results are recorded while batch k+1 is published and (on a store with
    // concurrent writers) batch k+2 claimed.
    const bool recorded_any = recording;
    if (recording) {
      add(totals, recorder.result());
      recording = false;
    }
    if (done && overlap_records) {
      recorder.start(std::move(*done));
      recording = true;
    } else if (done) {
      add(totals, record(done->batch, done->publish.results,
                         done->publish.calls));  // while batch k+1 is published
    }
    if (claimed_any)
      idle.found_work();
    if (publishing || claimed_any || recording || recorded_any) {
      continue;  // recorded results may have released keys: claim again before idling
    }
    if (!wait_when_idle || stop.stop_requested()) {
      return totals;
    }
    idle.wait(stop);
  }
}

RelayPass Relay::drain(std::size_t max_messages) {
  return pipeline(std::stop_token{}, max_messages, false);
}

void Relay::run(std::stop_token stop) {
  pipeline(std::move(stop), std::numeric_limits<std::size_t>::max(), true);
}

RelayStats Relay::stats() const noexcept {
  return RelayStats{published_.load(), retried_.load(), parked_.load(), claims_.load()};
}

}  // namespace docket
