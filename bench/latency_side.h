// What `docket bench latency` needs of a provider that has no outbox bench side
// (bench_provider.h): docket's outbox and inbox stores on the run's docket side, nothing
// else. The benchmark compares docket's two relay modes with each other, not with a raw
// baseline, so a provider gives it these two stores and no raw session; SQLite and
// PostgreSQL give theirs through their outbox and inbox bench sides instead.
//
// StoreUrlLatencyBench is the side of every provider whose side database is a store URL
// of its own (DynamoDB's table prefix, Firestore's collection prefix: their
// bench_store()): the provider's own open functions, called on that URL. Whatever such a
// run leaves behind is its provider's drop_sides() to remove.
//
// Thread-safety: immutable; every member may be called from many threads.
#ifndef DOCKET_BENCH_LATENCY_SIDE_H_
#define DOCKET_BENCH_LATENCY_SIDE_H_

#include <memory>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"

namespace docket::bench {

class LatencyBench {
 public:
  virtual ~LatencyBench() = default;

  // docket's outbox and inbox stores on the side database `db` (BenchStore::docket_db),
  // not migrated yet; each may be shared by the producer, relay and consumer threads.
  virtual std::unique_ptr<OutboxStore> open_outbox_store(const std::string& db) const = 0;
  virtual std::unique_ptr<InboxStore> open_inbox_store(const std::string& db) const = 0;
};

class StoreUrlLatencyBench final : public LatencyBench {
 public:
  using OpenOutbox = std::unique_ptr<OutboxStore> (*)(std::string_view url, const Clock& clock);
  using OpenInbox = std::unique_ptr<InboxStore> (*)(std::string_view url, const Clock& clock);

  // The provider's open functions (e.g. dynamodb::detail::open_outbox_store).
  constexpr StoreUrlLatencyBench(OpenOutbox open_outbox, OpenInbox open_inbox) noexcept
      : open_outbox_(open_outbox), open_inbox_(open_inbox) {}

  std::unique_ptr<OutboxStore> open_outbox_store(const std::string& db) const override {
    return open_outbox_(db, SystemClock::instance());
  }
  std::unique_ptr<InboxStore> open_inbox_store(const std::string& db) const override {
    return open_inbox_(db, SystemClock::instance());
  }

 private:
  OpenOutbox open_outbox_;
  OpenInbox open_inbox_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_LATENCY_SIDE_H_
