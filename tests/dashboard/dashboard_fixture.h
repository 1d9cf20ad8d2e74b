// What the dashboard's tests show it: a store holding parked outbox messages (with
// their errors), done and pending ones, failed claim inbox entries, and active and
// completed sagas, and a feed consumer's checkpoint behind its feed, written through docket's own
// stores and a real Relay (an in-process transport that refuses some destinations parks their
// messages with max_attempts 1), never around them.
//
// Thread-safety: a free function of the calling thread.
#ifndef DOCKET_TESTS_DASHBOARD_DASHBOARD_FIXTURE_H_
#define DOCKET_TESTS_DASHBOARD_DASHBOARD_FIXTURE_H_

#include <string>
#include <vector>

namespace docket::testing {

struct DashboardFixture {
  std::vector<std::string> parked;  // outbox ids, oldest first; each refused by "nowhere"
  std::string done;                 // an outbox id published
  std::string pending;              // an outbox id never attempted
  struct FailedEntry {
    std::string tenant, message_id, handler_type, error;
  };
  std::vector<FailedEntry> failed;   // claim inbox entries marked failed
  std::string processed_message_id;  // a claim entry of handler "Mailer", processed
  int active_sagas = 0;
  int completed_sagas = 0;
  std::string projection_consumer = "order-summary";  // a whole-feed checkpoint, 3 behind
};

// The error the transport gives every parked message (part of its last_error).
inline constexpr const char* kFixtureParkedDestination = "nowhere";

// Writes the fixture into the (empty) store at `url`.
DashboardFixture write_dashboard_fixture(const std::string& url);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_DASHBOARD_DASHBOARD_FIXTURE_H_
