// The DynamoDB provider under the outbox suite (tests/conformance/outbox_*): each open()
// a table prefix of its own on the DynamoDB Local server of DOCKET_TEST_DYNAMODB_URL
// (so a second open() is another, unrelated database), its tables deleted with the
// fixture. The producer's table is <prefix>orders, keyed by id (S); orders are inserted
// through docket::dynamodb::Transaction and counted with a consistent Scan (Select
// COUNT). A missing DOCKET_TEST_DYNAMODB_URL fails every case.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/dynamodb/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::conformance {
namespace dynamodb_outbox_fixture {

constexpr std::string_view kOrders = "orders";

class DynamoDbOutboxFixture final : public OutboxFixture {
 public:
  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    databases_.push_back(std::make_unique<test_support::DynamoDbTables>());
    const test_support::DynamoDbTables& tables = *databases_.back();
    const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(tables.url()));
    dynamodb::detail::ensure_table(client,
                                   {.name = tables.prefix() + std::string(kOrders),
                                    .partition_key = {"id", dynamodb::detail::KeyType::kString},
                                    .sort_key = std::nullopt,
                                    .global_indexes = {}});
    return open_outbox_store(tables.url(), clock);
  }

  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    dynamic_cast<dynamodb::Transaction&>(tx).insert(orders_table(), {{"id", {{"S", id}}}});
  }

  std::int64_t count_orders(OutboxStore&) override {
    const dynamodb::detail::Client client(
        dynamodb::detail::parse_store_url(databases_.front()->url()));
    std::int64_t count = 0;
    nlohmann::json request = {
        {"TableName", orders_table()}, {"Select", "COUNT"}, {"ConsistentRead", true}};
    for (;;) {
      const dynamodb::detail::Response page = client.call(
          {.operation = "Scan", .table = orders_table(), .replay = dynamodb::detail::Replay::kSafe},
          request);
      count += page.body().value("Count", std::int64_t{0});
      const auto last = page.body().find("LastEvaluatedKey");
      if (last == page.body().end()) {
        return count;
      }
      request["ExclusiveStartKey"] = *last;
    }
  }

 private:
  // The first database's: the store under test.
  std::string orders_table() const { return databases_.front()->prefix() + std::string(kOrders); }

  std::vector<std::unique_ptr<test_support::DynamoDbTables>> databases_;
};

// Not concurrent_commits: a unit's messages take their sequences from the counter when
// it commits, just before its commit request, so an open unit holds no sequence and one
// rolled back draws none: the late-commit cases, which hold a staged sequence open,
// cannot arise through the SPI. A sequence is invisible only while its commit is in
// flight; the provider's own tests (dynamodb_outbox_test.cc) show an open unit is not
// skipped and a failed commit's gap holds a consumer for one gap_timeout.
const FixtureRegistrar<OutboxProviderCase> kDynamoDbOutboxCase{
    {.name = "dynamodb",
     .provider = "dynamodb",
     .make =
         [] { return std::unique_ptr<OutboxFixture>(std::make_unique<DynamoDbOutboxFixture>()); },
     .concurrent_commits = false}};

}  // namespace dynamodb_outbox_fixture
}  // namespace docket::conformance
