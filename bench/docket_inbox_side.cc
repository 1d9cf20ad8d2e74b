#include "docket_inbox_side.h"

#include <exception>
#include <string_view>

#include "providers/kit/time_codec.h"

namespace docket::bench {
namespace {

struct BenchEvent {
  std::string body;
};

// The payload is the body as is: the bench measures docket, not a JSON parser.
struct BenchCodec {
  BenchEvent decode(std::string_view payload) const { return BenchEvent{std::string(payload)}; }
  std::string encode(const BenchEvent& event) const { return event.body; }
};

// The handler inserts the effect row through the provider's transaction wrapper, as a
// user's handler does.
HandlerRegistry bench_handlers(const InboxBench& provider, const std::string& db) {
  HandlerRegistry handlers;
  handlers.on<BenchEvent, BenchCodec>(
      kBenchEventType, [&provider, db](const BenchEvent& event, HandlerContext& ctx) {
        provider.insert_effect(ctx, db, event.body);
      });
  return handlers;
}

void fill(Envelope& envelope, const BenchDelivery& delivery) {
  envelope.message_id.assign(delivery.message_id);
  envelope.occurred_at = kit::from_micros(delivery.occurred_at_micros);
  if (envelope.event_type.empty()) {
    envelope.event_type = kBenchEventType;
    envelope.payload = kBenchPayload;
  }
}

void count(DispatchOutcome outcome, DispatchCounts& counts) {
  if (outcome == DispatchOutcome::kProcessed) {
    ++counts.processed;
  } else {
    ++counts.skipped_duplicates;
  }
}

}  // namespace

DocketInboxSide::DocketInboxSide(InboxStore& store, const std::string& db,
                                 const InboxBench& provider, const std::string& consumer_id,
                                 DedupCheck dedup)
    : dispatcher_(store, InboxOptions(consumer_id, dedup), bench_handlers(provider, db)) {}

DocketInboxSide::Session::Session(const InboxDispatcher& dispatcher) : dispatcher_(dispatcher) {}

void DocketInboxSide::Session::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  fill(single_, delivery);
  count(dispatcher_.dispatch(single_), counts);
}

void DocketInboxSide::Session::deliver_batch(std::span<const BenchDelivery> deliveries,
                                             DispatchCounts& counts) {
  if (batch_.size() < deliveries.size()) {
    batch_.resize(deliveries.size());
  }
  for (std::size_t i = 0; i < deliveries.size(); ++i) {
    fill(batch_[i], deliveries[i]);
  }
  const auto results =
      dispatcher_.dispatch_batch(std::span<const Envelope>(batch_.data(), deliveries.size()));
  for (const BatchItemResult& result : results) {
    if (!result.ok()) {
      std::rethrow_exception(result.error);
    }
    count(*result.outcome, counts);
  }
}

}  // namespace docket::bench
