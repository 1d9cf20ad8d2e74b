// A provider's database (JoinDatabases) with an inbox, an outbox and a saga store on
// it, the fulfilment saga registered on a dispatcher, and helpers to deliver messages
// and read back what committed.
#ifndef DOCKET_TESTS_SAGAS_SAGA_FIXTURE_H_
#define DOCKET_TESTS_SAGAS_SAGA_FIXTURE_H_

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "conformance/eventsourcing/join_databases.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/sagas/saga_errors.h"
#include "fulfilment_saga.h"

namespace docket::saga_tests {

using conformance::eventsourcing::JoinCaseNames;
using conformance::eventsourcing::JoinDatabases;

template <class Event>
Envelope envelope(std::string message_id, std::string_view event_type, const Event& event) {
  Envelope e;
  e.message_id = std::move(message_id);
  e.event_type = std::string(event_type);
  e.payload = nlohmann::json(event).dump();
  e.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return e;
}

inline Envelope placed(std::string id, std::string order = "O-1") {
  return envelope(std::move(id), "order-placed", OrderPlaced{std::move(order), 4200});
}
inline Envelope paid(std::string id, std::string order = "O-1") {
  return envelope(std::move(id), "payment-captured", PaymentCaptured{std::move(order)});
}
inline Envelope shipped(std::string id, std::string order = "O-1") {
  return envelope(std::move(id), "order-shipped", OrderShipped{std::move(order)});
}
inline Envelope cancelled(std::string id, std::string order = "O-1") {
  return envelope(std::move(id), "order-cancelled", OrderCancelled{std::move(order)});
}

// Dispatches each of `messages` from a thread of its own, all released at once by a
// barrier, redelivering after a SagaConflictError as a transport would; returns how
// many conflicts there were once every message was processed.
inline int deliver_at_once(const InboxDispatcher& inbox, const TenantId& tenant,
                           const std::vector<Envelope>& messages) {
  std::barrier<> start(static_cast<std::ptrdiff_t>(messages.size()));
  std::atomic<int> conflicts = 0;
  std::vector<std::thread> threads;
  for (const Envelope& message : messages) {
    threads.emplace_back([&] {
      TenantScope scope(tenant);
      start.arrive_and_wait();
      for (;;) {
        try {
          EXPECT_EQ(inbox.dispatch(message), DispatchOutcome::kProcessed);
          return;
        } catch (const SagaConflictError&) {
          ++conflicts;
        }
      }
    });
  }
  for (std::thread& t : threads) {
    t.join();
  }
  return conflicts;
}

template <typename Database>
class SagaFixture : public ::testing::Test {
 protected:
  SagaFixture()
      : inbox_store_(db_.open_inbox(clock_)),
        outbox_store_(db_.open_outbox(clock_)),
        sagas_(db_.open_sagas(clock_)),
        outbox_(*outbox_store_, clock_),
        inbox_(*inbox_store_, InboxOptions("fulfilment"), handlers()) {}

  HandlerRegistry handlers() {
    HandlerRegistry registry;
    register_fulfilment(registry, *sagas_, &outbox_, probe_);
    return registry;
  }

  SagaId saga(std::string_view order = "O-1") const { return SagaId(tenant_, kSagaType, order); }

  // The saga's committed record and decoded state.
  std::optional<SagaRecord> record(std::string_view order = "O-1") {
    return sagas_->load(saga(order));
  }
  Fulfilment state(std::string_view order = "O-1") {
    const auto loaded = record(order);
    EXPECT_TRUE(loaded.has_value()) << "no saga " << order;
    return loaded ? JsonCodec<Fulfilment>().decode(loaded->state) : Fulfilment{};
  }

  // "tenant:event-type" of every committed outbox row, in staging order.
  std::vector<std::string> sent() {
    std::vector<std::string> out;
    for (const OutboxRecord& r : outbox_store_->read_feed(0, 100)) {
      out.push_back(r.tenant + ":" + r.event_type);
    }
    return out;
  }

  bool recorded(std::string_view message_id, const TenantId& tenant) {
    return inbox_store_->is_recorded(
        DedupKey{tenant.value(), "fulfilment", std::string(message_id)});
  }
  bool recorded(std::string_view message_id) { return recorded(message_id, tenant_); }

  Database db_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<InboxStore> inbox_store_;
  std::unique_ptr<OutboxStore> outbox_store_;
  std::unique_ptr<SagaStore> sagas_;
  Outbox outbox_;
  Probe probe_;
  InboxDispatcher inbox_;
  TenantId tenant_{"acme"};
  TenantScope scope_{tenant_};
};

}  // namespace docket::saga_tests

#endif  // DOCKET_TESTS_SAGAS_SAGA_FIXTURE_H_
