#include "docket/memory/transaction.h"
#include "docket/open_outbox_store.h"
#include "outbox_fixture.h"

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

}  // namespace

std::unique_ptr<OutboxFixture> make_memory_outbox_fixture() {
  return std::make_unique<MemoryOutboxFixture>();
}

}  // namespace docket::conformance
