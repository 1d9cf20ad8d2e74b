// End to end on SQLite and on PostgreSQL: N orders staged with their messages, relayed
// through a transport with heavy faults (lost acks, duplicates, delays, reordering,
// publish failures) and a consumer crash, give exactly N invoices, checked by reading
// the database afresh. PostgreSQL runs in a schema of its own per test.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <tuple>

#include "docket/sqlite/transaction.h"
#include "docket/stores/open_store.h"
#include "order_pipeline.h"
#if DOCKET_HAVE_POSTGRES
#include "docket/postgres/transaction.h"
#include "providers/postgres/tests/postgres_schema.h"
#endif

namespace docket {
namespace {

enum class Database { kSqlite, kPostgres };

// The databases this build has providers for.
constexpr Database kDatabases[] = {Database::kSqlite,
#if DOCKET_HAVE_POSTGRES
                                   Database::kPostgres
#endif
};

// A database of its own for one test, removed afterwards.
class TestDatabase {
 public:
  virtual ~TestDatabase() = default;
  virtual const std::string& url() const = 0;
};

class SqliteFile : public TestDatabase {
 public:
  SqliteFile() {
    std::string dir = (std::filesystem::temp_directory_path() / "docket-e2e-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      throw std::runtime_error("could not create a temporary directory at " + dir);
    }
    dir_ = dir;
    url_ = "sqlite://" + (dir_ / "pipeline.db").string();
  }
  ~SqliteFile() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  const std::string& url() const override { return url_; }

 private:
  std::filesystem::path dir_;
  std::string url_;
};

#if DOCKET_HAVE_POSTGRES
class PostgresSchema : public TestDatabase {
 public:
  const std::string& url() const override { return schema_.url(); }

 private:
  test_support::PostgresSchema schema_;
};
#endif

class OutboxToInbox : public ::testing::TestWithParam<std::tuple<Database, std::uint64_t>> {
 protected:
  void SetUp() override {
    switch (std::get<0>(GetParam())) {
      case Database::kSqlite:
        database_ = std::make_unique<SqliteFile>();
        return;
      case Database::kPostgres:
#if DOCKET_HAVE_POSTGRES
        database_ = std::make_unique<PostgresSchema>();
#endif
        return;
    }
  }

  // The first column of the first row of `sql`, read through a store opened afresh.
  std::int64_t scalar(const std::string& sql) {
    auto store = open_inbox_store(database_->url());
    auto unit = store->begin();
    HandlerTransaction& tx = unit->handler_transaction();
    if (auto* sqlite_tx = dynamic_cast<sqlite::Transaction*>(&tx)) {
      return std::get<std::int64_t>(sqlite_tx->query(sql).at(0).at(0));
    }
#if DOCKET_HAVE_POSTGRES
    return std::get<std::int64_t>(dynamic_cast<postgres::Transaction&>(tx).query(sql).at(0).at(0));
#else
    throw std::runtime_error("no SQL for " + std::string(tx.type_name()));
#endif
  }

  std::unique_ptr<TestDatabase> database_;
};

TEST_P(OutboxToInbox, HeavyFaultsGiveExactlyOneInvoicePerOrder) {
  constexpr std::size_t kOrders = 400;
  const auto report = examples::run_order_pipeline({.orders = kOrders,
                                                    .store_url = database_->url(),
                                                    .faults = examples::FaultLevel::kHeavy,
                                                    .seed = std::get<1>(GetParam())});
  EXPECT_TRUE(report.ok());
  EXPECT_GT(report.redeliveries, 0U);
  EXPECT_GT(report.duplicates, 0U);
  EXPECT_GT(report.publish_retries, 0U);
  EXPECT_EQ(report.consumer_restarts, 1);
  EXPECT_EQ(report.skipped_duplicates, report.deliveries - kOrders);

  // Read back from the database itself, independent of the pipeline's counters.
  EXPECT_EQ(scalar("SELECT count(*) FROM orders"), static_cast<std::int64_t>(kOrders));
  EXPECT_EQ(scalar("SELECT count(*) FROM invoices"), static_cast<std::int64_t>(kOrders));
  EXPECT_EQ(scalar("SELECT count(DISTINCT order_id) FROM invoices"),
            static_cast<std::int64_t>(kOrders));
  EXPECT_EQ(scalar("SELECT count(*) FROM invoices WHERE order_id NOT IN "
                   "(SELECT order_id FROM orders)"),
            0);
  EXPECT_EQ(scalar("SELECT count(*) FROM docket_outbox WHERE status = 1"),
            static_cast<std::int64_t>(kOrders));  // every message published and done
  EXPECT_EQ(scalar("SELECT count(*) FROM docket_inbox_messages WHERE consumer_id = 'billing'"),
            static_cast<std::int64_t>(kOrders));
}

// A second run on the same database creates nothing twice and keeps to its own orders.
TEST_P(OutboxToInbox, RepeatedRunsOnOneDatabaseKeepApart) {
  const examples::PipelineOptions options{.orders = 50,
                                          .store_url = database_->url(),
                                          .faults = examples::FaultLevel::kSome,
                                          .seed = std::get<1>(GetParam())};
  EXPECT_TRUE(examples::run_order_pipeline(options).ok());
  const auto second = examples::run_order_pipeline(options);
  EXPECT_TRUE(second.ok());
  EXPECT_EQ(second.invoices, 50);
  EXPECT_EQ(scalar("SELECT count(*) FROM invoices"), 100);
  EXPECT_EQ(scalar("SELECT count(DISTINCT order_id) FROM invoices"), 100);
}

std::string test_name(const ::testing::TestParamInfo<OutboxToInbox::ParamType>& info) {
  return std::string(std::get<0>(info.param) == Database::kSqlite ? "Sqlite" : "Postgres") +
         "Seed" + std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Databases, OutboxToInbox,
                         ::testing::Combine(::testing::ValuesIn(kDatabases),
                                            ::testing::Values(1, 2, 3)),
                         test_name);

}  // namespace
}  // namespace docket
