// The Redis provider under the outbox suite (tests/conformance/outbox_*): each open() a
// key prefix of its own on the Redis server of DOCKET_TEST_REDIS_URL (so a second
// open() is another, unrelated database), its keys deleted with the fixture. The
// producer's orders are the keys <prefix>orders:<id>, inserted through
// docket::redis::Transaction (an insert of a key that exists is a unique violation) and
// counted with SCAN. A missing DOCKET_TEST_REDIS_URL fails every case.
#include <memory>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "conformance/outbox_fixture.h"
#include "docket/redis/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::conformance {
namespace redis_outbox_fixture {

constexpr std::string_view kRedisOrders = "orders:";

class RedisOutboxFixture final : public OutboxFixture {
 public:
  std::unique_ptr<OutboxStore> open(const Clock& clock) override {
    databases_.push_back(std::make_unique<test_support::RedisDatabase>());
    return open_outbox_store(databases_.back()->url(), clock);
  }

  void insert_order(HandlerTransaction& tx, const std::string& id) override {
    dynamic_cast<redis::Transaction&>(tx).insert(
        databases_.front()->prefix() + std::string(kRedisOrders) + id, "{}");
  }

  std::int64_t count_orders(OutboxStore&) override {
    return databases_.front()->count(kRedisOrders);
  }

 private:
  std::vector<std::unique_ptr<test_support::RedisDatabase>> databases_;
};

// Not concurrent_commits: the commit script draws each message's sequence as it writes
// it, and Redis runs one script at a time, so an open unit holds no sequence and a
// lower one can never commit after a higher one. Wakes relays: the commit script
// publishes to the staged channel.
const FixtureRegistrar<OutboxProviderCase> kRedisOutboxCase{
    {.name = "redis",
     .provider = "redis",
     .make = [] { return std::unique_ptr<OutboxFixture>(std::make_unique<RedisOutboxFixture>()); },
     .concurrent_commits = false,
     .wakes_relays = true}};

}  // namespace redis_outbox_fixture
}  // namespace docket::conformance
