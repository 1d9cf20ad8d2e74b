// What the `docket demo` tests share: a run on a store, as a child process, and the
// summary every correct run shows.
#ifndef DOCKET_TESTS_TOOL_DEMO_RUN_H_
#define DOCKET_TESTS_TOOL_DEMO_RUN_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace docket::testing {

// Runs `docket demo --store <store> --orders <orders> --faults heavy --json` and
// expects exit 0 and a summary that adds up: ok, every order published, processed and
// invoiced once (and the messages an earlier run left published and processed besides),
// the billing consumer restarted once, and the faults absorbed (every delivery
// processed or skipped as a duplicate). Returns the summary (null when the
// run failed, the failure recorded).
nlohmann::json expect_demo_ok(const std::string& store, int orders);

// The document stores' demo cases, on `store` (a table or collection prefix of the
// test's own). `records_in(base)` counts the records of the services' table or
// collection `base` under that prefix, read from the store directly.
//
// The demo run twice with 30 orders: both runs ok, and the services' orders and
// invoices hold both runs' 60, one invoice for each order.
void expect_demo_runs_twice(const std::string& store,
                            const std::function<std::int64_t(std::string_view)>& records_in);
// Two units of work each invoicing one order: the services' count shows it invoiced
// twice (no key of the order hides it), and an order of another run, whose id only
// begins alike, is not counted.
void expect_an_order_invoiced_twice_is_counted(const std::string& store);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_DEMO_RUN_H_
