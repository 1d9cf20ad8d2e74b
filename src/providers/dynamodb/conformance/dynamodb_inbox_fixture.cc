// The DynamoDB provider under the inbox suite (tests/conformance): a table prefix of its
// own per fixture on the DynamoDB Local server of DOCKET_TEST_DYNAMODB_URL (tables
// deleted with the fixture), which other processes reach by the same URL. The effects
// table is <prefix>effects, keyed by id (S); handlers insert into it through
// docket::dynamodb::Transaction. Rows are counted with a consistent Scan (Select COUNT).
// A missing DOCKET_TEST_DYNAMODB_URL fails every case.
#include <memory>
#include <optional>
#include <string>

#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/dynamodb/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::conformance {
namespace {

class DynamoDbInboxFixture final : public ProviderFixture {
 public:
  DynamoDbInboxFixture()
      : client_(dynamodb::detail::parse_store_url(tables_.url())), effects_(table(kEffectsTable)) {}

  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    dynamodb::detail::ensure_table(client_,
                                   {.name = effects_,
                                    .partition_key = {"id", dynamodb::detail::KeyType::kString},
                                    .sort_key = std::nullopt,
                                    .global_indexes = {}});
    return open_inbox_store(tables_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return tables_.url(); }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(kPingType,
                      [effects = effects_, effect_id = std::move(effect_id)](
                          const Ping& event, dynamodb::Transaction& tx, HandlerContext& ctx) {
                        tx.insert(effects, {{"id", {{"S", effect_id(event, ctx)}}}});
                      });
  }
  std::int64_t count_rows(InboxStore&, std::string_view base) override {
    const std::string name = table(base);
    std::int64_t count = 0;
    nlohmann::json request = {{"TableName", name}, {"Select", "COUNT"}, {"ConsistentRead", true}};
    for (;;) {
      const dynamodb::detail::Response page =
          client_.call({.operation = "Scan",
                        .table = name,
                        .replay = dynamodb::detail::Replay::kSafe,
                        .expected = {dynamodb::detail::ErrorKind::kResourceNotFound}},
                       request);
      if (!page.ok()) {
        return 0;  // the store has not made its table yet: nothing in it
      }
      count += page.body().value("Count", std::int64_t{0});
      const auto last = page.body().find("LastEvaluatedKey");
      if (last == page.body().end()) {
        return count;
      }
      request["ExclusiveStartKey"] = *last;
    }
  }

 private:
  std::string table(std::string_view base) const { return tables_.prefix() + std::string(base); }

  test_support::DynamoDbTables tables_;
  dynamodb::detail::Client client_;
  std::string effects_;
};

const FixtureRegistrar<ProviderCase> kDynamoDbInboxCase{
    {.name = "dynamodb",
     .provider = "dynamodb",
     .make =
         [] { return std::unique_ptr<ProviderFixture>(std::make_unique<DynamoDbInboxFixture>()); },
     .typed_handlers = &noop_ping_handlers<dynamodb::Transaction>,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
