// End to end on a SQLite file: N orders staged with their messages, relayed through a
// transport with heavy faults (lost acks, duplicates, delays, reordering, publish
// failures) and a consumer crash, give exactly N invoices, checked by reading the file
// afresh.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "docket/open_inbox_store.h"
#include "docket/open_outbox_store.h"
#include "docket/sqlite/transaction.h"
#include "order_pipeline.h"

namespace docket {
namespace {

class OutboxToInbox : public ::testing::TestWithParam<std::uint64_t> {
 protected:
  void SetUp() override {
    std::string dir = (std::filesystem::temp_directory_path() / "docket-e2e-XXXXXX").string();
    ASSERT_NE(mkdtemp(dir.data()), nullptr);
    dir_ = dir;
    url_ = "sqlite://" + (dir_ / "pipeline.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::int64_t scalar(const std::string& sql) {
    auto store = open_inbox_store(url_);
    auto unit = store->begin();
    const auto rows = dynamic_cast<sqlite::Transaction&>(unit->handler_transaction()).query(sql);
    return std::get<std::int64_t>(rows.at(0).at(0));
  }

  std::filesystem::path dir_;
  std::string url_;
};

TEST_P(OutboxToInbox, HeavyFaultsGiveExactlyOneInvoicePerOrder) {
  constexpr std::size_t kOrders = 400;
  const auto report = examples::run_order_pipeline({.orders = kOrders,
                                                    .store_url = url_,
                                                    .faults = examples::FaultLevel::kHeavy,
                                                    .seed = GetParam()});
  EXPECT_TRUE(report.ok());
  EXPECT_GT(report.redeliveries, 0U);
  EXPECT_GT(report.duplicates, 0U);
  EXPECT_GT(report.publish_retries, 0U);
  EXPECT_EQ(report.consumer_restarts, 1);
  EXPECT_EQ(report.skipped_duplicates, report.deliveries - kOrders);

  // Read back from the file itself, independent of the pipeline's counters.
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

INSTANTIATE_TEST_SUITE_P(Seeds, OutboxToInbox, ::testing::Values(1, 2, 3));

}  // namespace
}  // namespace docket
