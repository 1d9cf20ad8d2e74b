// DedupCheck::kAtCommit on a store that cannot hold the dedup write back (memory): the
// dispatcher falls back to checking before the handlers, so a duplicate runs none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"

namespace docket::dedup_check_test {
namespace {

Envelope ping(std::string message_id) {
  Envelope e;
  e.message_id = std::move(message_id);
  e.event_type = "ping";
  e.payload = "{}";
  e.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return e;
}

TEST(DedupCheck, AStoreThatCannotDeferChecksBeforeTheHandlers) {
  ManualClock clock{Timestamp(std::chrono::seconds(1'800'000'000))};
  auto store = memory::open_store(clock);
  int runs = 0;
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>(
      "ping", [&](const nlohmann::json&, memory::Transaction& tx, HandlerContext& ctx) {
        ++runs;
        tx.insert("pings", {ctx.envelope().message_id});
      });
  const InboxDispatcher inbox(*store, InboxOptions("pinger", DedupCheck::kAtCommit),
                              std::move(handlers));
  EXPECT_EQ(inbox.options().dedup(), DedupCheck::kAtCommit);
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs, 1) << "the memory store records before the handlers, whatever the option";
}

TEST(DedupCheck, BeforeHandlersIsTheDefault) {
  EXPECT_EQ(InboxOptions("c").dedup(), DedupCheck::kBeforeHandlers);
}

}  // namespace
}  // namespace docket::dedup_check_test
