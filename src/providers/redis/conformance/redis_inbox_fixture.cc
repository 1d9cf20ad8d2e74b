// The Redis provider under the inbox suite (tests/conformance): a key prefix of its own
// per fixture on the Redis server of DOCKET_TEST_REDIS_URL (keys deleted with the
// fixture), which other processes reach by the same URL. The effects "table" is the keys
// <prefix>effects:<id>; handlers insert them through docket::redis::Transaction (an
// insert of a key that exists is a unique violation). Rows are counted natively: effects
// and dedup records with SCAN, checkpoints with ZCARD of their index. A missing
// DOCKET_TEST_REDIS_URL fails every case.
#include <memory>
#include <optional>
#include <string>

#include "conformance/fixture_registry.h"
#include "conformance/suite.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/redis/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/redis/redis_checkpoint_store.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::conformance {
namespace {

class RedisInboxFixture final : public ProviderFixture {
 public:
  std::unique_ptr<InboxStore> open(const Clock& clock) override {
    return open_inbox_store(database_.url(), clock);
  }
  std::optional<std::string> shared_url() const override { return database_.url(); }
  void on_ping(HandlerRegistry& handlers, EffectId effect_id) override {
    handlers.on<Ping>(kPingType,
                      [prefix = database_.prefix() + std::string(kEffectsTable) + ":",
                       effect_id = std::move(effect_id)](const Ping& event, redis::Transaction& tx,
                                                         HandlerContext& ctx) {
                        tx.insert(prefix + effect_id(event, ctx), "1");
                      });
  }
  std::int64_t count_rows(InboxStore&, std::string_view table) override {
    if (table == kConsumerCheckpointsTable) {
      return redis::detail::count_checkpoints(database_.pool());
    }
    if (table == kEffectsTable) {
      return database_.count(std::string(table) + ":");
    }
    if (table == kInboxMessagesTable) {
      return database_.count(redis::detail::kDedupNamespace);
    }
    ADD_FAILURE() << "the Redis fixture counts no table '" << table << "'";
    return -1;
  }

 private:
  test_support::RedisDatabase database_;
};

const FixtureRegistrar<ProviderCase> kRedisInboxCase{
    {.name = "redis",
     .provider = "redis",
     .make = [] { return std::unique_ptr<ProviderFixture>(std::make_unique<RedisInboxFixture>()); },
     .typed_handlers = &noop_ping_handlers<redis::Transaction>,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance
