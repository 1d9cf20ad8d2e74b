// What the `docket demo` tests share: a run on a store, as a child process, and the
// summary every correct run shows.
#ifndef DOCKET_TESTS_TOOL_DEMO_RUN_H_
#define DOCKET_TESTS_TOOL_DEMO_RUN_H_

#include <nlohmann/json.hpp>
#include <string>

namespace docket::testing {

// Runs `docket demo --store <store> --orders <orders> --faults heavy --json` and
// expects exit 0 and a summary that adds up: ok, every order published, processed and
// invoiced once (and the messages an earlier run left published and processed besides),
// the billing consumer restarted once, and the faults absorbed (every delivery
// processed or skipped as a duplicate). Returns the summary (null when the
// run failed, the failure recorded).
nlohmann::json expect_demo_ok(const std::string& store, int orders);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_DEMO_RUN_H_
