#include "docket/memory/transaction.h"
#include "docket/open_inbox_store.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class MemoryFixture final : public ProviderFixture {
 public:
  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    return open_inbox_store("memory:", clock);
  }
  std::optional<std::string> shared_url() const override { return std::nullopt; }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(kPingType,
                      [effect_id = std::move(effect_id)](const Ping& event, memory::Transaction& tx,
                                                         HandlerContext& ctx) {
                        tx.insert(kEffectsTable, {effect_id(event, ctx)});
                      });
  }
  std::int64_t count_rows(InboxStore& store, std::string_view table) override {
    auto unit = store.begin();  // an empty unit of work sees the committed rows
    auto& tx = dynamic_cast<memory::Transaction&>(unit->handler_transaction());
    return static_cast<std::int64_t>(tx.count(table));
  }
};

}  // namespace

std::unique_ptr<ProviderFixture> make_memory_fixture() {
  return std::make_unique<MemoryFixture>();
}

}  // namespace docket::conformance
