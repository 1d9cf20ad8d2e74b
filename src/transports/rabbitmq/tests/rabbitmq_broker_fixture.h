// Where the RabbitMQ tests find their broker, and a fixture with a topology of its own.
//
// scripts/test.sh starts a throwaway broker (scripts/rabbitmq-start.sh) and exports its
// URL as DOCKET_TEST_RABBITMQ_URL. A test that needs it fails, never skips, when the
// variable is missing: a suite that silently ran nothing would look like a pass. The
// broker also has the user docket_limited (same password), which may read and write
// but declare nothing.
//
// Thread-safety: a fixture belongs to its test's thread.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_TESTS_RABBITMQ_BROKER_FIXTURE_H_
#define DOCKET_TRANSPORTS_RABBITMQ_TESTS_RABBITMQ_BROKER_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_message.h"
#include "transports/rabbitmq/rabbitmq_topology.h"

namespace docket::rabbitmq::detail::test {

// The parsed DOCKET_TEST_RABBITMQ_URL. Throws std::runtime_error, which fails the
// calling test, saying how to start the broker when it is unset or empty.
BrokerUrl test_broker_url();

// Each test gets exchanges and queues named after it (declared in SetUp, deleted in
// TearDown), so that tests share the broker and nothing else.
class BrokerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A unique name for an entity of this test: "docket-test.<test>.<what>.<pid>".
  std::string entity_name(std::string_view what) const;
  // A message to this test's exchange with `routing_key`, id `id`, body "body of <id>".
  OutgoingMessage message(std::string_view id,
                          std::string_view routing_key = "orders.created") const;

  BrokerUrl url_;
  Topology topology_;                  // routing key "orders.#", with dead-lettering
  std::unique_ptr<Connection> admin_;  // declares and deletes this test's topology
};

}  // namespace docket::rabbitmq::detail::test

#endif  // DOCKET_TRANSPORTS_RABBITMQ_TESTS_RABBITMQ_BROKER_FIXTURE_H_
