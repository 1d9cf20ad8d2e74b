// An inbox store and an event store on one provider's database (FeedJoinDatabases), a
// "balances" projection whose handler writes the read model (read_model.h) in the
// inbox's unit of work, and helpers to append events and check what was applied.
#ifndef DOCKET_TESTS_PROJECTIONS_FEED_FIXTURE_H_
#define DOCKET_TESTS_PROJECTIONS_FEED_FIXTURE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/projections/event_feed_consumer.h"
#include "read_model.h"

namespace docket::projection_tests {

using conformance::eventsourcing::FeedJoinDatabases;
using conformance::eventsourcing::JoinCaseNames;

struct Deposited {
  int amount = 0;
};
inline void to_json(nlohmann::json& j, const Deposited& d) {
  j = {{"amount", d.amount}};
}
inline void from_json(const nlohmann::json& j, Deposited& d) {
  j.at("amount").get_to(d.amount);
}

inline constexpr std::string_view kDeposited = "deposited";
inline constexpr std::string_view kAudited = "audited";  // no handler in the projection

inline NewEvent deposited(int amount) {
  return NewEvent{.type = std::string(kDeposited),
                  .payload = nlohmann::json(Deposited{amount}).dump()};
}
inline NewEvent audited() {
  return NewEvent{.type = std::string(kAudited), .payload = "{}"};
}

template <typename Database>
class FeedFixture : public ::testing::Test {
 protected:
  using Model = ReadModel<Database>;

  FeedFixture() : inbox_store_(db_.open_inbox(clock_)), events_(db_.open_events(clock_)) {
    model_.create(*inbox_store_);
  }

  // Appends `events` to `tenant`'s account `account`; returns what was recorded.
  std::vector<Applied> append(const TenantId& tenant, std::string_view account,
                              std::vector<NewEvent> events) {
    const AppendResult result =
        events_->append(StreamId(tenant, "account", account), ExpectedVersion::any(), events);
    std::vector<Applied> out;
    for (const AppendedEvent& e : result.value_or_throw().events) {
      out.push_back(Applied{tenant.value(), std::string(account), e.version});
    }
    return out;
  }

  // The "balances" projection (or `consumer`): its deposited handler applies the event
  // to the read model, after `before` (when set) had its say on the event.
  InboxDispatcher projection(std::string consumer = "balances") {
    HandlerRegistry handlers;
    handlers.on<Deposited>(
        kDeposited, [this](const Deposited&, typename Model::Tx& tx, HandlerContext& ctx) {
          const RecordedEvent& event = EventFeedConsumer::current_event(ctx);
          EXPECT_EQ(ctx.tenant(), event.stream.tenant()) << "dispatched under its event's tenant";
          ++attempts_;
          if (before_) {
            before_(event);
          }
          model_.apply(tx, Applied{event.stream.tenant().value(), event.stream.aggregate_id(),
                                   event.version});
        });
    return InboxDispatcher(*inbox_store_, InboxOptions(std::move(consumer)), std::move(handlers));
  }

  // Makes the projection's handler throw for the event at `position` until refusing_
  // is cleared (the cause is fixed).
  void refuse_at(std::int64_t position) {
    refusing_ = true;
    before_ = [this, position](const RecordedEvent& e) {
      if (refusing_ && e.global_position == position) {
        throw std::runtime_error("read model refused the event");
      }
    };
  }

  // Runs pages until one reads nothing; returns the totals.
  static EventFeedPass drain(EventFeedConsumer& consumer) {
    EventFeedPass total;
    for (EventFeedPass pass = consumer.run_once(); pass.read > 0; pass = consumer.run_once()) {
      total.read += pass.read;
      total.processed += pass.processed;
      total.skipped += pass.skipped;
      total.unhandled += pass.unhandled;
      total.checkpoint = pass.checkpoint;
    }
    return total;
  }

  // The read model holds exactly `rows`.
  void expect_read_model(const std::vector<Applied>& rows) {
    EXPECT_EQ(model_.count(*inbox_store_), rows.size());
    for (const Applied& row : rows) {
      EXPECT_TRUE(model_.has(*inbox_store_, row))
          << "missing " << row.tenant << "/" << row.account << "@" << row.version;
    }
  }

  // The global position after the last event stored.
  std::int64_t end_of_feed() {
    const ReadAllPage page = events_->read_all(0, kMaxReadAllLimit);
    return page.events.empty() ? 0 : page.events.back().global_position + 1;
  }

  std::int64_t position_of(const Applied& row) {
    for (const RecordedEvent& e : events_->read_all(0, kMaxReadAllLimit).events) {
      if (e.stream.tenant().value() == row.tenant && e.stream.aggregate_id() == row.account &&
          e.version == row.version) {
        return e.global_position;
      }
    }
    throw std::logic_error("no such event");
  }

  // A read model that keeps state of its database (a key prefix) is made from it.
  static Model make_model(Database& db) {
    if constexpr (std::is_constructible_v<Model, Database&>) {
      return Model(db);
    } else {
      return Model{};
    }
  }

  Database db_;
  Model model_ = make_model(db_);
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<InboxStore> inbox_store_;
  std::unique_ptr<EventStore> events_;
  std::function<void(const RecordedEvent&)> before_;
  int attempts_ = 0;
  bool refusing_ = false;
  const TenantId acme_{"acme"};
  const TenantId globex_{"globex"};
};

template <class T>
std::vector<T> concat(std::vector<T> a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace docket::projection_tests

#endif  // DOCKET_TESTS_PROJECTIONS_FEED_FIXTURE_H_
