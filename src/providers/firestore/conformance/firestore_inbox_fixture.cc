// The Firestore provider under the inbox suite (tests/conformance): a collection prefix
// of its own per fixture on the Firestore emulator of DOCKET_TEST_FIRESTORE_URL
// (documents deleted with the fixture), which other processes reach by the same URL.
// The effects collection is <prefix>effects, a document per effect id; handlers create
// them through docket::firestore::Transaction, so a second create of one id is a unique
// violation. Documents are counted with a query over the whole collection, page by page.
// A missing DOCKET_TEST_FIRESTORE_URL fails every case.
#include <memory>
#include <optional>
#include <string>

#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/firestore/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::conformance {
namespace {

class FirestoreInboxFixture final : public ProviderFixture {
 public:
  FirestoreInboxFixture()
      : client_(firestore::detail::parse_store_url(collections_.url())),
        effects_(client_.url().collection(kEffectsTable)) {}

  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    return open_inbox_store(collections_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return collections_.url(); }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(kPingType,
                      [effects = effects_, effect_id = std::move(effect_id)](
                          const Ping& event, firestore::Transaction& tx, HandlerContext& ctx) {
                        tx.create(effects, effect_id(event, ctx), nlohmann::json::object());
                      });
  }
  std::int64_t count_rows(InboxStore&, std::string_view base) override {
    std::int64_t count = 0;
    firestore::detail::query_pages(
        client_, firestore::detail::Query{.collection = client_.url().collection(base)}, 500,
        [&](std::vector<firestore::detail::Document>& page) {
          count += static_cast<std::int64_t>(page.size());
          return true;
        });
    return count;
  }

 private:
  test_support::FirestoreCollections collections_;
  firestore::detail::Client client_;
  std::string effects_;
};

const FixtureRegistrar<ProviderCase> kFirestoreInboxCase{
    {.name = "firestore",
     .provider = "firestore",
     .make =
         [] { return std::unique_ptr<ProviderFixture>(std::make_unique<FirestoreInboxFixture>()); },
     .typed_handlers = &noop_ping_handlers<firestore::Transaction>,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
