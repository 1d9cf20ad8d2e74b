// The dispatcher's commit-time duplicate resolution, made deterministic on the memory
// provider (optimistic units of work): a delivery of the same message commits while a
// handler of this delivery is running, so this delivery's commit hits the unique key.
#include <gtest/gtest.h>

#include <thread>

#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"

namespace docket::memory_commit_conflict_test {
namespace {

struct Ping {};
void from_json(const nlohmann::json&, Ping&) {}

Envelope ping(std::string id) {
  return Envelope{.message_id = std::move(id), .event_type = "ping", .payload = "{}"};
}

class MemoryCommitConflictTest : public ::testing::Test {
 protected:
  // A dispatcher whose handler writes one effect row per execution and, on its first
  // execution for `racer_trigger`, delivers `racer_id` to completion on another thread.
  std::unique_ptr<InboxDispatcher> make(std::string racer_trigger, std::string racer_id) {
    HandlerRegistry handlers;
    handlers.on<Ping>("ping", [this, racer_trigger, racer_id](const Ping&, memory::Transaction& tx,
                                                              HandlerContext& ctx) {
      tx.insert("effects", {ctx.envelope().message_id, std::to_string(executions_++)});
      if (ctx.envelope().message_id == racer_trigger && !raced_) {
        raced_ = true;
        std::thread racer([&] { racer_outcome_ = inbox_->dispatch(ping(racer_id)); });
        racer.join();
      }
    });
    return std::make_unique<InboxDispatcher>(*store_, InboxOptions("billing"), std::move(handlers));
  }

  std::size_t effects() {
    auto unit = store_->begin();
    return dynamic_cast<memory::Transaction&>(unit->handler_transaction()).count("effects");
  }

  std::unique_ptr<InboxStore> store_ = memory::open_store();
  std::unique_ptr<InboxDispatcher> inbox_;
  int executions_ = 0;
  bool raced_ = false;
  std::optional<DispatchOutcome> racer_outcome_;
};

TEST_F(MemoryCommitConflictTest, LosingDeliveryIsSkippedAndItsEffectsRollBack) {
  inbox_ = make("m-1", "m-1");
  EXPECT_EQ(inbox_->dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(racer_outcome_, DispatchOutcome::kProcessed);
  EXPECT_EQ(executions_, 2) << "both deliveries ran the handler";
  EXPECT_EQ(effects(), 1u) << "only the winner's effect committed";
}

TEST_F(MemoryCommitConflictTest, BatchIsRetriedAndSeesTheCommittedMessageAsDuplicate) {
  inbox_ = make("m-2", "m-1");
  const std::vector<Envelope> batch{ping("m-1"), ping("m-2")};
  const auto results = inbox_->dispatch_batch(batch);
  EXPECT_EQ(racer_outcome_, DispatchOutcome::kProcessed);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(effects(), 2u);
}

}  // namespace
}  // namespace docket::memory_commit_conflict_test
