// What the memory database tests share: a fixture with an inbox store on a fresh
// memory database, a command message naming one subject (an account, an order) that
// its handler may be told to fail after writing, and the check that a unit of work
// lost a commit-time race.
#ifndef DOCKET_PROVIDERS_MEMORY_CONFORMANCE_MEMORY_TEST_SUPPORT_H_
#define DOCKET_PROVIDERS_MEMORY_CONFORMANCE_MEMORY_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/inbox/inbox_store.h"
#include "docket/memory/database.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"

namespace docket::conformance::eventsourcing {

class MemoryDatabaseFixture : public ::testing::Test {
 protected:
  static memory::Transaction& tx(UnitOfWork& unit) {
    return dynamic_cast<memory::Transaction&>(unit.handler_transaction());
  }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  memory::Database db_ = memory::open_database(clock_);
  std::unique_ptr<InboxStore> inbox_ = memory::open_store(db_);
  TenantId tenant_{"acme"};
  TenantScope scope_{tenant_};
};

struct Command {
  std::string subject;
  int amount = 0;
  bool fail = false;  // the handler throws after its writes
};
inline void from_json(const nlohmann::json& j, Command& c) {
  j.at("subject").get_to(c.subject);
  j.at("amount").get_to(c.amount);
  j.at("fail").get_to(c.fail);
}

inline Envelope command(std::string message_id, std::string_view event_type,
                        std::string_view subject, int amount = 0, bool fail = false) {
  return Envelope{
      .message_id = std::move(message_id),
      .event_type = std::string(event_type),
      .payload = nlohmann::json{{"subject", subject}, {"amount", amount}, {"fail", fail}}.dump()};
}

// Commits `unit` and expects it to fail with ConcurrencyConflictError from
// `expected_version` to `actual_version`, with a message that mentions `mention`.
inline void expect_commit_conflict(UnitOfWork& unit, std::int64_t expected_version,
                                   std::int64_t actual_version, std::string_view mention) {
  try {
    unit.commit();
    ADD_FAILURE() << "the commit must fail";
  } catch (const ConcurrencyConflictError& e) {
    EXPECT_EQ(e.expected_version(), expected_version);
    EXPECT_EQ(e.actual_version(), actual_version);
    EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
  }
}

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_PROVIDERS_MEMORY_CONFORMANCE_MEMORY_TEST_SUPPORT_H_
