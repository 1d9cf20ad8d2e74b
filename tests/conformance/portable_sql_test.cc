// Portable SQL (docket/core/sql_transaction.h) on every inbox provider: one handler,
// written once against SqlTransaction, runs unchanged where the store's transactions
// implement it (SQLite, PostgreSQL), binding every kind of parameter the same way and
// committing with the dedup row; a store whose transactions do not is refused when the
// dispatcher is built; a producer's unit gives it through a checked cast.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "docket/core/sql_transaction.h"
#include "suite.h"

namespace docket::conformance {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kCreate =
    "CREATE TABLE IF NOT EXISTS portable_invoices ("
    " order_id TEXT PRIMARY KEY, cents BIGINT, small BIGINT, paid BOOLEAN, rate DOUBLE PRECISION,"
    " note TEXT, pdf BYTEA, due TIMESTAMPTZ)";

const Timestamp kDue = Timestamp(std::chrono::seconds(1'800'000'000)) + 123456us;
const SqlBytes kPdf{std::byte{0x25}, std::byte{0x00}, std::byte{0xff}};

class PortableSqlTest : public InboxConformance {
 protected:
  bool speaks_sql() const { return store_->transaction_type().speaks_sql; }

  // Runs `work` in a unit of the store's own and commits it.
  void in_unit(const std::function<void(SqlTransaction&)>& work) {
    auto unit = store_->begin();
    work(unit->transaction<SqlTransaction>());
    unit->commit();
  }

  InboxDispatcher invoicing(bool fail_after_insert = false) {
    HandlerRegistry handlers;
    handlers.on<Ping>(
        kPingType, [fail_after_insert](const Ping&, SqlTransaction& tx, HandlerContext& ctx) {
          const std::string id = ctx.envelope().message_id;
          const std::optional<std::string> no_note;
          tx.execute(
              "INSERT INTO portable_invoices (order_id, cents, small, paid, rate, note, pdf, due)"
              " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
              {id, std::numeric_limits<std::int64_t>::max(), std::uint32_t{4'000'000'000}, true,
               0.25, no_note, kPdf, kDue});
          if (fail_after_insert) {
            throw std::runtime_error("handler failed after its insert");
          }
        });
    return InboxDispatcher(*store_, InboxOptions("invoicing"), std::move(handlers));
  }
};

TEST_P(PortableSqlTest, OneHandlerRunsOnEveryStoreThatSpeaksSqlAndIsRefusedElsewhere) {
  if (!speaks_sql()) {
    try {
      invoicing();
      ADD_FAILURE() << "a portable SQL handler was accepted by the " << store_->provider_name()
                    << " inbox store";
    } catch (const ConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("takes docket::SqlTransaction"), std::string::npos)
          << e.what();
    }
    EXPECT_THROW(store_->begin()->transaction<SqlTransaction>(), ConfigurationError);
    return;
  }
  in_unit([](SqlTransaction& tx) { tx.execute(kCreate); });
  const InboxDispatcher inbox = invoicing();
  EXPECT_EQ(inbox.dispatch(ping("O-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(ping("O-1")), DispatchOutcome::kSkippedDuplicate);

  in_unit([](SqlTransaction& tx) {
    const auto rows = tx.fetch(
        "SELECT order_id, cents, small, paid, rate, note, pdf FROM portable_invoices"
        " WHERE order_id = $1",
        {"O-1"});
    ASSERT_EQ(rows.size(), 1U);
    const SqlRow& row = rows[0];
    EXPECT_EQ(std::get<std::string>(row[0]), "O-1");
    EXPECT_EQ(std::get<std::int64_t>(row[1]), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(std::get<std::int64_t>(row[2]), 4'000'000'000);
    EXPECT_EQ(std::get<std::int64_t>(row[3]), 1) << "a boolean reads as 0/1 on both";
    EXPECT_EQ(std::get<double>(row[4]), 0.25);
    EXPECT_TRUE(std::holds_alternative<std::nullptr_t>(row[5])) << "an empty optional is NULL";
    EXPECT_EQ(std::get<SqlBytes>(row[6]), kPdf) << "bytes come back as bytes, NUL included";
    // A timestamp compares as the instant it is, by a parameter of the same kind.
    const auto due = tx.fetch(
        "SELECT count(*) FROM portable_invoices WHERE due = $1 AND due < $2 AND order_id = $3",
        {kDue, kDue + 1us, "O-1"});
    EXPECT_EQ(std::get<std::int64_t>(due.at(0).at(0)), 1);
    EXPECT_EQ(tx.execute("UPDATE portable_invoices SET note = $1 WHERE cents = $2",
                         {std::optional<std::string>("settled"),
                          std::numeric_limits<std::int64_t>::max()}),
              1);
  });

  // A handler that fails after its statement: the statement goes with the rollback.
  EXPECT_THROW(invoicing(/*fail_after_insert=*/true).dispatch(ping("O-2")), std::runtime_error);
  in_unit([](SqlTransaction& tx) {
    EXPECT_TRUE(tx.fetch("SELECT 1 FROM portable_invoices WHERE order_id = $1", {"O-2"}).empty());
  });
  EXPECT_EQ(invoicing().dispatch(ping("O-2")), DispatchOutcome::kProcessed);
}

TEST_P(PortableSqlTest, BadParametersAreRefusedAndNothingRuns) {
  EXPECT_THROW((void)SqlParam{std::numeric_limits<std::uint64_t>::max()}, InvalidInputError);
  EXPECT_NO_THROW((void)SqlParam{std::uint64_t{9'223'372'036'854'775'807ULL}});
  if (!speaks_sql()) {
    return;
  }
  in_unit([](SqlTransaction& tx) { tx.execute(kCreate); });
  // A placeholder without its parameter: refused (by docket on SQLite, by the server on
  // PostgreSQL), and the unit commits nothing of it.
  {
    auto unit = store_->begin();
    EXPECT_THROW(unit->transaction<SqlTransaction>().execute(
                     "INSERT INTO portable_invoices (order_id, cents) VALUES ($1, $2)", {"O-3"}),
                 Error);
  }
  in_unit([](SqlTransaction& tx) {
    EXPECT_TRUE(tx.fetch("SELECT 1 FROM portable_invoices WHERE order_id = $1", {"O-3"}).empty());
  });
}

INSTANTIATE_TEST_SUITE_P(AllProviders, PortableSqlTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
