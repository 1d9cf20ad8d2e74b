#include "demo_run.h"

#include <gtest/gtest.h>

#include "docket/stores/open_store.h"
#include "order_services.h"
#include "services_for_store.h"
#include "tool_runner.h"

namespace docket::testing {

nlohmann::json expect_demo_ok(const std::string& store, int orders) {
  // A run that never ends fails the test instead of hanging it.
  const ToolRun run = run_docket_within(
      {"demo", "--store", store, "--orders", std::to_string(orders), "--faults", "heavy", "--json"},
      std::chrono::seconds(120));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  if (run.exit_code != 0) {
    return nullptr;
  }
  const auto summary = nlohmann::json::parse(run.out);
  EXPECT_TRUE(summary.at("ok").get<bool>()) << run.out;
  EXPECT_EQ(summary.at("orders"), orders) << run.out;
  // An earlier run's messages left in the outbox are relayed and processed too.
  const int earlier = summary.at("earlier_runs_processed").get<int>();
  EXPECT_EQ(summary.at("published"), orders + earlier) << run.out;
  EXPECT_EQ(summary.at("processed"), orders) << run.out;
  EXPECT_EQ(summary.at("invoices"), orders) << run.out;
  EXPECT_EQ(summary.at("duplicates_found"), 0) << run.out;
  EXPECT_EQ(summary.at("consumer_restarts"), 1) << run.out;
  EXPECT_GT(summary.at("redeliveries").get<int>(), 0) << run.out;  // the crash's, at least
  EXPECT_EQ(summary.at("deliveries").get<int>(), summary.at("processed").get<int>() + earlier +
                                                     summary.at("skipped_duplicates").get<int>())
      << run.out;
  return summary;
}

void expect_demo_runs_twice(const std::string& store,
                            const std::function<std::int64_t(std::string_view)>& records_in) {
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const nlohmann::json summary = expect_demo_ok(store, 30);
    ASSERT_FALSE(summary.is_null());
    EXPECT_EQ(summary.at("store"), store);
  }
  EXPECT_EQ(records_in("demo_orders"), 60);
  EXPECT_EQ(records_in("demo_invoices"), 60);
}

void expect_an_order_invoiced_twice_is_counted(const std::string& store) {
  const auto services = examples::services_for_store(store);
  services->create_tables();
  const auto inbox = open_inbox_store(store);
  for (const char* order_id : {"runa-1", "runa-1", "runa-2", "runab-1"}) {
    auto unit = inbox->begin();
    services->write_invoice(unit->handler_transaction(), {order_id, 250});
    unit->commit();
  }
  const examples::InvoiceCount count = examples::count_invoices(*services, "runa");
  EXPECT_EQ(count.invoices, 3);
  EXPECT_EQ(count.duplicates, 1);
}

}  // namespace docket::testing
