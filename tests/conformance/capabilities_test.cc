// Inbox store capabilities: what each provider states, and the dispatcher's refusal of
// a batch over a store's commit limit, before anything is written.
#include "docket/core/error.h"
#include "docket/spi/inbox_unit.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class InboxCapabilitiesTest : public InboxConformance {};

TEST_P(InboxCapabilitiesTest, TheStoreStatesWhatTheSuiteReliesOn) {
  const StoreCapabilities caps = store_->capabilities();
  EXPECT_TRUE(caps.joins_handler_writes);  // every test writes effects in the handler
  // The batch tests dispatch 100 messages in one batch, each writing its dedup record
  // and one effect: a store whose commit limit binds (DynamoDB) must take 100 messages
  // in a batch, which the dispatcher splits across commits as the writes need.
  EXPECT_TRUE(caps.max_writes_per_commit == 0 || caps.max_writes_per_commit >= 100u)
      << caps.max_writes_per_commit;
  EXPECT_EQ(caps.shared_between_processes, fixture_->shared_url().has_value());
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
}

// The provider's store, declaring a commit limit of `limit` writes: what a document
// store states, so that the dispatcher's refusal runs against a real store.
class LimitedStore final : public InboxStore {
 public:
  LimitedStore(InboxStore& inner, std::size_t limit) : inner_(inner), limit_(limit) {}

  std::string_view provider_name() const noexcept override { return "limited"; }
  StoreCapabilities capabilities() const noexcept override {
    StoreCapabilities caps = inner_.capabilities();
    caps.max_writes_per_commit = limit_;
    return caps;
  }
  TransactionType transaction_type() const noexcept override { return inner_.transaction_type(); }
  void migrate() override { inner_.migrate(); }
  bool is_recorded(const DedupKey& key) override { return inner_.is_recorded(key); }
  CheckpointStore& checkpoints() noexcept override { return inner_.checkpoints(); }

 protected:
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    return spi::InboxStoreAccess::begin(inner_);
  }
  std::vector<std::string> do_filter_unprocessed(const std::string& tenant,
                                                 std::string_view consumer_id,
                                                 std::span<const std::string> ids) override {
    const TenantScope scope(TenantId::from_stored(tenant));
    return inner_.filter_unprocessed(consumer_id, ids);
  }
  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    return static_cast<std::size_t>(inner_.purge_processed_before(cutoff, limit));
  }

 private:
  InboxStore& inner_;
  std::size_t limit_;
};

TEST_P(InboxCapabilitiesTest, ABatchOverTheCommitLimitIsRefusedWholeAndNothingIsWritten) {
  LimitedStore limited(*store_, 3);
  HandlerRegistry handlers;
  fixture_->on_ping(handlers,
                    [](const Ping&, HandlerContext& ctx) { return ctx.envelope().message_id; });
  const InboxDispatcher inbox(limited, InboxOptions("billing"), std::move(handlers));
  const std::vector<Envelope> four = {ping("m-1"), ping("m-2"), ping("m-3"), ping("m-4")};
  try {
    inbox.dispatch_batch(four);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the limited inbox cannot join writes beyond 3 per commit"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("dispatch smaller batches or use the claim inbox"), std::string::npos)
        << message;
  }
  EXPECT_EQ(effects(), 0);
  EXPECT_EQ(dedup_rows(), 0);
  const auto results = inbox.dispatch_batch(std::span(four).first(3));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(effects(), 3);
}

INSTANTIATE_TEST_SUITE_P(Providers, InboxCapabilitiesTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
