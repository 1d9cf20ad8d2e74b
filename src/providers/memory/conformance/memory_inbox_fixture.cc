// The memory provider under the inbox suite (tests/conformance): a fresh memory
// database per fixture, which no other process can open.
#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/memory/transaction.h"
#include "docket/stores/open_store.h"

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

const FixtureRegistrar<ProviderCase> kMemoryInboxCase{
    {.name = "memory",
     .provider = "memory",
     .make = [] { return std::unique_ptr<ProviderFixture>(std::make_unique<MemoryFixture>()); },
     .typed_handlers = &noop_ping_handlers<memory::Transaction>}};

}  // namespace
}  // namespace docket::conformance
