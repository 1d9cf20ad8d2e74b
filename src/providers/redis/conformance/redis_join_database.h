// The Redis provider in the suites that run stores inside an inbox handler's unit of
// work (tests/conformance/eventsourcing/join_databases.h): its inbox, outbox, event and
// saga stores under a key prefix of their own on the Redis server of
// DOCKET_TEST_REDIS_URL, all writing through one docket::redis::Transaction whose unit
// commits them in one script run; and the projections' read model as keys under the same
// prefix, so that its event store's feed runs in the projection suites too.
#ifndef DOCKET_PROVIDERS_REDIS_CONFORMANCE_REDIS_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_REDIS_CONFORMANCE_REDIS_JOIN_DATABASE_H_

#include <cstddef>
#include <string>

#include "conformance/eventsourcing/join_read_model.h"
#include "conformance/eventsourcing/url_join_database.h"
#include "docket/inbox/inbox_store.h"
#include "docket/redis/transaction.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::redis::conformance {

inline constexpr char kProviderName[] = "redis";

using UrlDatabase =
    ::docket::conformance::eventsourcing::UrlJoinDatabase<test_support::RedisDatabase, Transaction,
                                                          kProviderName>;

// The read model (join_read_model.h) as one key a row under the database's prefix,
// {prefix}balances_read:{tenant}:{account}:{version}, written by Transaction::insert: an
// event applied twice is the handler's own UniqueViolationError at commit, in the same
// script run as the dedup record.
class RedisReadModel {
 public:
  using Tx = Transaction;
  using Applied = ::docket::conformance::Applied;

  explicit RedisReadModel(const UrlDatabase& database) : database_(&database.scratch) {}

  static void create(InboxStore&) {}  // keys need no table
  void apply(Tx& tx, const Applied& row) const { tx.insert(key(row), "1"); }
  std::size_t count(InboxStore&) const { return static_cast<std::size_t>(database_->count(kRows)); }
  bool has(InboxStore&, const Applied& row) const {
    return database_->pool().run({"EXISTS", key(row)}, detail::Replay::kSafe).integer() == 1;
  }

 private:
  static constexpr const char* kRows = "balances_read:";

  std::string key(const Applied& row) const {
    return database_->prefix() + kRows + row.tenant + ":" + row.account + ":" +
           std::to_string(row.version);
  }

  const test_support::RedisDatabase* database_;
};

struct JoinDatabase : UrlDatabase {
  using ReadModel = RedisReadModel;
};

}  // namespace docket::redis::conformance

#endif  // DOCKET_PROVIDERS_REDIS_CONFORMANCE_REDIS_JOIN_DATABASE_H_
