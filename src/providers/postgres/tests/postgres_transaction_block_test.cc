// Transactions: rollback unless committed, commit, savepoints, failed commits, and the
// deferred BEGIN and savepoint commands that travel with the next statement.
#include "providers/postgres/postgres_transaction_block.h"

#include <cstdint>
#include <string>

#include "docket/core/error.h"
#include "providers/postgres/postgres_round_trips.h"
#include "providers/postgres/tests/postgres_fixture.h"

namespace docket::postgres::detail {
namespace {

class PostgresTransactionTest : public PostgresTest {
 protected:
  void insert(std::string_view id) {
    exec(conn_, "INSERT INTO " + table_.name() + " (id) VALUES ($1)", id);
  }
  std::vector<std::string> ids() {
    Result r = exec(conn_, "SELECT id FROM " + table_.name() + " ORDER BY id");
    std::vector<std::string> out;
    for (int row = 0; row < r.rows(); ++row) {
      out.emplace_back(r.text(row, 0));
    }
    return out;
  }

  ScratchTable table_{url_, "tx"};
  Connection conn_{url_};
};

TEST_F(PostgresTransactionTest, RollsBackWhenDestroyedWithoutCommit) {
  {
    TransactionBlock tx(conn_);
    insert("a");
    EXPECT_EQ(ids(), std::vector<std::string>{"a"});  // visible inside
    EXPECT_EQ(table_.committed_rows(), 0);            // not outside
  }
  EXPECT_TRUE(conn_.idle());
  EXPECT_TRUE(ids().empty());
}

TEST_F(PostgresTransactionTest, CommitMakesTheWritesVisibleToOthers) {
  TransactionBlock tx(conn_, Isolation::kSerializable);
  insert("a");
  insert("b");
  EXPECT_EQ(table_.committed_rows(), 0);
  tx.commit();
  EXPECT_FALSE(tx.active());
  EXPECT_EQ(table_.committed_rows(), 2);
  EXPECT_THROW(tx.commit(), InvalidInputError);
}

TEST_F(PostgresTransactionTest, ExplicitRollbackDiscardsTheWrites) {
  TransactionBlock tx(conn_);
  insert("a");
  tx.rollback();
  EXPECT_TRUE(conn_.idle());
  EXPECT_TRUE(ids().empty());
}

TEST_F(PostgresTransactionTest, RollbackToSavepointUndoesOnlyWhatFollowedIt) {
  TransactionBlock tx(conn_);
  insert("a");
  tx.savepoint("msg_1");
  insert("b");
  EXPECT_THROW(insert("a"), PostgresError);  // unique violation aborts ...
  tx.rollback_to("msg_1");                   // ... only back to the savepoint
  tx.release("msg_1");
  insert("c");
  tx.commit();
  EXPECT_EQ(ids(), (std::vector<std::string>{"a", "c"}));
}

TEST_F(PostgresTransactionTest, CommitAfterAFailedStatementThrowsAndKeepsNothing) {
  TransactionBlock tx(conn_);
  insert("a");
  EXPECT_THROW(insert("a"), PostgresError);
  try {
    tx.commit();
    FAIL() << "commit of an aborted transaction succeeded";
  } catch (const PostgresError& error) {
    EXPECT_EQ(error.sqlstate(), sqlstate::kInFailedSqlTransaction);
  }
  EXPECT_TRUE(conn_.idle());
  EXPECT_EQ(table_.committed_rows(), 0);
}

TEST_F(PostgresTransactionTest, RefusesBadSavepointNamesAndNestedBegin) {
  TransactionBlock tx(conn_);
  EXPECT_THROW(tx.savepoint("x; DROP TABLE t"), InvalidInputError);
  EXPECT_THROW(tx.savepoint("1abc"), InvalidInputError);
  EXPECT_THROW(tx.savepoint(""), InvalidInputError);
  EXPECT_THROW(TransactionBlock nested(conn_), InvalidInputError);
}

TEST_F(PostgresTransactionTest, BeginAndSavepointsTravelWithTheNextStatement) {
  const std::uint64_t before = round_trips();
  TransactionBlock tx(conn_);
  insert("a");  // BEGIN + INSERT: one flight
  tx.savepoint("msg_1");
  tx.release("msg_1");
  tx.savepoint("msg_2");
  insert("b");  // RELEASE, SAVEPOINT + INSERT: one flight
  tx.release("msg_2");
  tx.commit();  // RELEASE + COMMIT: one flight
  EXPECT_EQ(round_trips() - before, 3u);
  EXPECT_TRUE(conn_.idle());
  EXPECT_EQ(table_.committed_rows(), 2);
}

TEST_F(PostgresTransactionTest, ABlockThatSentNothingEndsWithoutARoundTrip) {
  const std::uint64_t before = round_trips();
  {
    TransactionBlock tx(conn_);
    EXPECT_TRUE(conn_.in_transaction());
    tx.savepoint("msg_1");
    tx.commit();
  }
  {
    TransactionBlock tx(conn_);
    tx.rollback();
  }
  { TransactionBlock tx(conn_); }
  EXPECT_EQ(round_trips() - before, 0u);
  EXPECT_TRUE(conn_.idle());
}

TEST_F(PostgresTransactionTest, AFailedDeferredCommandIsReportedAndTheStatementDoesNotRun) {
  TransactionBlock tx(conn_);
  insert("a");
  tx.rollback_to("never_set");
  try {
    insert("b");
    FAIL() << "the statement after a failed ROLLBACK TO ran";
  } catch (const PostgresError& error) {
    EXPECT_NE(std::string(error.what()).find("ROLLBACK TO SAVEPOINT never_set"), std::string::npos)
        << error.what();
  }
  tx.rollback();
  EXPECT_TRUE(conn_.idle()) << "the connection is out of pipeline mode and reusable";
  EXPECT_TRUE(ids().empty());
  insert("c");
  EXPECT_EQ(table_.committed_rows(), 1);
}

}  // namespace
}  // namespace docket::postgres::detail
