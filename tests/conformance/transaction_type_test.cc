// Every provider's inbox store states the transaction type its units of work give, and a
// dispatcher over it refuses handlers written against another provider's transaction at
// construction, naming both; handlers written against its own write and commit with the
// dedup row (as every test of the suite does through ProviderFixture::on_ping).
#include "docket/core/transaction_type.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "suite.h"

namespace docket::conformance {
namespace {

class TransactionTypeTest : public InboxConformance {};

struct Candidate {
  TransactionType type;
  HandlerRegistry (*handlers)();
};

// The transaction types this build has: every registered provider's, once each.
std::vector<Candidate> every_provider_transaction() {
  std::vector<Candidate> types;
  for (const ProviderCase& provider : all_providers()) {
    if (provider.typed_handlers == nullptr) {
      ADD_FAILURE() << "the " << provider.name << " fixture registers no typed_handlers";
      continue;
    }
    const TransactionType type = provider.typed_handlers().required_transaction()->type;
    if (std::none_of(types.begin(), types.end(),
                     [&](const Candidate& known) { return known.type == type; })) {
      types.push_back({type, provider.typed_handlers});
    }
  }
  return types;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST_P(TransactionTypeTest, TheStoreStatesTheTypeEveryUnitOfWorkGives) {
  EXPECT_EQ(store_->provider_name(), GetParam().provider);
  const TransactionType type = store_->transaction_type();
  EXPECT_EQ(type.name, "docket::" + std::string(store_->provider_name()) + "::Transaction");
  for (int i = 0; i < 2; ++i) {
    auto unit = store_->begin();
    EXPECT_TRUE(type.is_type_of(unit->handler_transaction()));
    EXPECT_EQ(unit->handler_transaction().type_name(), type.name);
  }
  int own = 0;
  for (const Candidate& candidate : every_provider_transaction()) {
    own += candidate.type == type ? 1 : 0;
  }
  EXPECT_EQ(own, 1) << "the store's type is one provider's transaction";
}

TEST_P(TransactionTypeTest, HandlersOfAnotherProviderAreRefusedAtConstructionNamingBoth) {
  const TransactionType own = store_->transaction_type();
  int refused = 0;
  for (const Candidate& other : every_provider_transaction()) {
    if (other.type == own) {
      continue;
    }
    try {
      const InboxDispatcher inbox(*store_, InboxOptions("billing"), other.handlers());
      ADD_FAILURE() << "a dispatcher over " << own.name << " accepted handlers of "
                    << other.type.name;
    } catch (const ConfigurationError& e) {
      const std::string what = e.what();
      EXPECT_TRUE(contains(what, "inbox dispatcher 'billing'")) << what;
      EXPECT_TRUE(
          contains(what, "the handler of event type 'ping' takes " + std::string(other.type.name)))
          << what;
      EXPECT_TRUE(contains(what, "inbox store gives handlers " + std::string(own.name))) << what;
      EXPECT_TRUE(contains(what, "runs on the claim inbox instead")) << what;
      ++refused;
    }
  }
  EXPECT_EQ(refused, static_cast<int>(every_provider_transaction().size()) - 1);
  EXPECT_EQ(dedup_rows(), 0);
  EXPECT_EQ(effects(), 0);
}

TEST_P(TransactionTypeTest, HandlersOfItsOwnTypeAreAcceptedWithAgnosticOnes) {
  const TransactionType own = store_->transaction_type();
  for (const Candidate& candidate : every_provider_transaction()) {
    if (candidate.type == own) {
      HandlerRegistry handlers = candidate.handlers();
      handlers.on<Ping>(kPingType, [](const Ping&, HandlerContext&) {});
      EXPECT_NO_THROW(InboxDispatcher(*store_, InboxOptions("billing"), std::move(handlers)));
    }
  }
}

TEST_P(TransactionTypeTest, TypedHandlersWritesCommitWithTheDedupRowOrNotAtAll) {
  bool fail = true;
  const auto inbox = dispatcher("billing", [&](const Ping&, HandlerContext&) {
    if (fail) {
      throw std::runtime_error("refused");
    }
  });
  EXPECT_THROW(inbox.dispatch(ping("m-0")), std::runtime_error);
  EXPECT_EQ(effects(), 0);
  EXPECT_EQ(dedup_rows(), 0);
  fail = false;
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  const std::vector<Envelope> batch{ping("m-2"), ping("m-3")};
  for (const BatchItemResult& result : inbox.dispatch_batch(batch)) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed);
  }
  EXPECT_EQ(effects(), 3);
  EXPECT_EQ(dedup_rows(), 3);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, TransactionTypeTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
