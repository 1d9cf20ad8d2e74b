// The Cosmos DB provider under the inbox suite (tests/conformance): a database of its own
// per fixture on the test server of DOCKET_TEST_COSMOS_URL (deleted with the fixture),
// which other processes reach by the same URL. Handlers create their effect items through
// docket::cosmos::Transaction, in the inbox's container and the message tenant's
// partition, each marked docketTable "effects", so a second create of one id is a unique
// violation (the suite's effect ids percent-encoded, as Cosmos DB refuses '#' in an
// id); rows of a table are counted with a COUNT(1) query across partitions.
#include <memory>
#include <optional>
#include <string>

#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/cosmos/transaction.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/keys/term_codec.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_checkpoint_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::conformance {
namespace {

class CosmosInboxFixture final : public ProviderFixture {
 public:
  CosmosInboxFixture() : client_(cosmos::detail::parse_store_url(database_.url())) {}

  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    return open_inbox_store(database_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return database_.url(); }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(kPingType,
                      [effect_id = std::move(effect_id)](const Ping& event, cosmos::Transaction& tx,
                                                         HandlerContext& ctx) {
                        // Percent-encoded: the suite's ids hold '#', which Cosmos DB refuses in an
                        // id.
                        tx.create(keys::percent_encode(effect_id(event, ctx)),
                                  {{cosmos::detail::kTableProperty, std::string(kEffectsTable)}});
                      });
  }
  std::int64_t count_rows(InboxStore& store, std::string_view table) override {
    store.migrate();
    if (table == kConsumerCheckpointsTable) {
      const std::string container =
          client_.url().container(cosmos::detail::kCheckpointContainerBase);
      client_.ensure_container(container, "/id");
      return static_cast<std::int64_t>(cosmos::detail::query_count(
          client_, {.container = container, .sql = "SELECT VALUE COUNT(1) FROM c"}));
    }
    return static_cast<std::int64_t>(cosmos::detail::query_count(
        client_, {.container = client_.url().container(cosmos::detail::kInboxContainerBase),
                  .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.docketTable = @table",
                  .parameters = {{{"name", "@table"}, {"value", table}}}}));
  }

 private:
  test_support::CosmosDatabase database_;
  cosmos::detail::Client client_;
};

const FixtureRegistrar<ProviderCase> kCosmosInboxCase{
    {.name = "cosmos",
     .provider = "cosmos",
     .make =
         [] { return std::unique_ptr<ProviderFixture>(std::make_unique<CosmosInboxFixture>()); },
     .typed_handlers = &noop_ping_handlers<cosmos::Transaction>,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
