// The memory provider under the outbox suite (tests/conformance): each open() a fresh
// memory database.
#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/memory/transaction.h"
#include "docket/stores/open_store.h"

namespace docket::conformance {
namespace {

class MemoryOutboxFixture final : public OutboxFixture {
 public:
  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    return open_outbox_store("memory:", clock);
  }
  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    dynamic_cast<memory::Transaction&>(tx).insert("orders", {id});
  }
  std::int64_t count_orders(OutboxStore& store) override {
    auto unit = store.begin();  // an empty unit of work sees the committed rows
    auto& tx = dynamic_cast<memory::Transaction&>(unit->handler_transaction());
    return static_cast<std::int64_t>(tx.count("orders"));
  }
};

// Sequences are assigned at staging and seen at commit: they can commit out of order.
const FixtureRegistrar<OutboxProviderCase> kMemoryOutboxCase{
    {.name = "memory",
     .provider = "memory",
     .make = [] { return std::unique_ptr<OutboxFixture>(std::make_unique<MemoryOutboxFixture>()); },
     .concurrent_commits = true,
     .wakes_relays = true}};

}  // namespace
}  // namespace docket::conformance
