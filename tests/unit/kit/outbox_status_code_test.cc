#include "providers/kit/outbox_status_code.h"

#include <gtest/gtest.h>

#include <string>

namespace docket::kit {
namespace {

TEST(OutboxStatusCode, EveryStatusComesBackFromItsCode) {
  for (const OutboxStatus status : {OutboxStatus::kPending, OutboxStatus::kDone,
                                    OutboxStatus::kParked, OutboxStatus::kSkipped}) {
    EXPECT_EQ(outbox_status_of_code(outbox_status_code(status), "test"), status);
  }
  EXPECT_EQ(outbox_status_code(OutboxStatus::kSkipped), 3);
}

TEST(OutboxStatusCode, ACodeDocketNeverWritesIsRefusedNotReadAsPending) {
  try {
    (void)outbox_status_of_code(7, "SQLite outbox");
    FAIL() << "code 7 was read as a status";
  } catch (const InfrastructureError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("SQLite outbox: an outbox row has status 7"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace docket::kit
