// The outbox conformance suite's test base: a fresh outbox store per test on the
// provider under test, a manual clock, and helpers to stage and to drain a transport.
#ifndef DOCKET_TESTS_CONFORMANCE_OUTBOX_SUITE_H_
#define DOCKET_TESTS_CONFORMANCE_OUTBOX_SUITE_H_

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/transports/in_process_transport.h"
#include "outbox_fixture.h"

namespace docket::conformance {

class OutboxConformance : public ::testing::TestWithParam<OutboxProviderCase> {
 protected:
  void SetUp() override;

  // Stages one "OrderPlaced" per order id, each in its own committed unit of work with
  // its order row; returns the message ids in staging order.
  std::vector<std::string> stage_orders(std::size_t count, const std::string& prefix = "order-");

  // Stages `message` alone in its own committed unit of work; returns its id.
  std::string stage(const OutboxMessage& message);

  // Every message id the transport holds, received and acknowledged.
  static std::vector<std::string> drain(InProcessTransport& transport);

  // Relay settings for tests: idle waits of 1 ms, no jitter, 1 s base, 60 s cap, 3
  // attempts.
  static RelaySettings test_settings();

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<OutboxFixture> fixture_;
  std::unique_ptr<OutboxStore> store_;
  std::unique_ptr<Outbox> outbox_;
};

std::string outbox_provider_name(const ::testing::TestParamInfo<OutboxProviderCase>& info);

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_OUTBOX_SUITE_H_
