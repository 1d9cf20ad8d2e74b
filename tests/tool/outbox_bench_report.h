// What every `docket bench outbox --json` report on a provider's test server must show,
// shared by the providers' bench tests (src/providers/*/conformance/*_bench_test.cc): the
// run's own checks passed, and both sides staged, published and marked done every
// message of every relay run exactly once.
//
// Thread-safety: call from the test's thread.
#ifndef DOCKET_TESTS_TOOL_OUTBOX_BENCH_REPORT_H_
#define DOCKET_TESTS_TOOL_OUTBOX_BENCH_REPORT_H_

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace docket::testing {

// `report` of a run whose relay runs relayed `messages` messages in all (--messages times
// the relay runs), on both sides.
inline void expect_outbox_bench_adds_up(const nlohmann::json& report, int messages) {
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_TRUE(report.at("problems").empty()) << report.dump();
  for (const char* field : {"rows", "raw_rows", "published", "raw_published", "done", "raw_done"}) {
    EXPECT_EQ(report.at(field), messages) << field << ": " << report.dump();
  }
  EXPECT_EQ(report.at("duplicates"), 0) << report.dump();
  EXPECT_EQ(report.at("raw_duplicates"), 0) << report.dump();
  int relayed = 0;
  int raw_relayed = 0;
  for (const auto& run : report.at("relay")) {
    relayed += run.at("published").get<int>();
    raw_relayed += run.at("raw_published").get<int>();
    EXPECT_EQ(run.at("published"), run.at("raw_published")) << run.dump();
  }
  EXPECT_EQ(relayed, messages) << report.dump();
  EXPECT_EQ(raw_relayed, messages) << report.dump();
}

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_OUTBOX_BENCH_REPORT_H_
