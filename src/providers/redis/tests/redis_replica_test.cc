// The URL's replicas= option against a primary and a replica of the test's own
// (scripts/redis-start.sh, the second with DOCKET_REDIS_REPLICA_OF): a commit waits for
// the replicas asked for and is on the replica when it returns; a commit that fewer
// replicas acknowledge in time fails naming how many did, and stands on the primary, so
// that the inbox's redelivery finds it done.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/stores/open_store.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_url.h"
#include "support/loopback_http_server.h"
#include "support/own_server.h"

namespace docket::redis::detail {
namespace {

using ::testing::HasSubstr;

// A primary and one replica of it, each in a directory of the test's own, the replica
// in sync when the constructor returns.
class PrimaryAndReplica {
 public:
  PrimaryAndReplica()
      : port_(test_support::free_loopback_port_run(2)),
        primary_("redis", "DOCKET_REDIS_DIR=" + dir_.file("primary") +
                              " DOCKET_REDIS_PORT=" + std::to_string(port_)),
        replica_("redis", "DOCKET_REDIS_DIR=" + dir_.file("replica") +
                              " DOCKET_REDIS_PORT=" + std::to_string(port_ + 1) +
                              " DOCKET_REDIS_REPLICA_OF=127.0.0.1:" + std::to_string(port_)) {
    Pool replica(parse_url(replica_.url()));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (replica.run({"INFO", "replication"}, Replay::kSafe)
               .ok()
               .text()
               .find("master_link_status:up") == std::string_view::npos) {
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("the replica did not connect to its primary within 30 s");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  const std::string& primary_url() const { return primary_.url(); }
  const std::string& replica_url() const { return replica_.url(); }

 private:
  conformance::eventsourcing::TempDir dir_;
  int port_;
  testing::OwnServer primary_;
  testing::OwnServer replica_;
};

InboxDispatcher billing(InboxStore& store) {
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [](const nlohmann::json&, HandlerContext&) {});
  return InboxDispatcher(store, InboxOptions("billing"), std::move(handlers));
}

Envelope placed(const std::string& id) {
  return Envelope{.message_id = id, .event_type = "OrderPlaced", .payload = "{}"};
}

TEST(RedisReplicas, ACommitWaitsForTheReplicasTheUrlAsksFor) {
  const PrimaryAndReplica servers;
  const TenantScope tenant{TenantId("acme")};
  Pool replica(parse_url(servers.replica_url()));
  const long long before = replica.run({"DBSIZE"}, Replay::kSafe).ok().integer();

  auto one = open_inbox_store(servers.primary_url() + "?replicas=1&replica_timeout_ms=10000");
  EXPECT_EQ(billing(*one).dispatch(placed("m-1")), DispatchOutcome::kProcessed);
  // WAIT returned: the replica has the commit, read there at once.
  EXPECT_GT(replica.run({"DBSIZE"}, Replay::kSafe).ok().integer(), before);

  // Two replicas asked, one there: the commit fails naming the count, and stands on the
  // primary, so that its redelivery is a duplicate, processed once.
  auto two = open_inbox_store(servers.primary_url() + "?replicas=2&replica_timeout_ms=200");
  try {
    billing(*two).dispatch(placed("m-2"));
    FAIL() << "a commit fewer replicas acknowledged must fail";
  } catch (const InboxStoreError& error) {
    EXPECT_THAT(error.what(), HasSubstr("only 1 of the 2 replicas the store URL asks for"));
    EXPECT_THAT(error.what(), HasSubstr("within 200 ms"));
  }
  EXPECT_EQ(billing(*one).dispatch(placed("m-2")), DispatchOutcome::kSkippedDuplicate);
}

TEST(RedisReplicas, TheOptionsAreRangeChecked) {
  EXPECT_EQ(parse_url("redis://h?replicas=2").replicas, 2);
  EXPECT_EQ(parse_url("redis://h?replicas=2").replica_timeout_ms, 1000);
  EXPECT_EQ(parse_url("redis://h?replicas=1&replica_timeout_ms=50").replica_timeout_ms, 50);
  EXPECT_EQ(parse_url("redis://h").replicas, 0);
  for (const char* bad : {"redis://h?replicas=0", "redis://h?replicas=101",
                          "redis://h?replicas=1&replica_timeout_ms=0",
                          "redis://h?replicas=1&replica_timeout_ms=600001"}) {
    EXPECT_THROW(parse_url(bad), ConfigurationError) << bad;
  }
  try {
    parse_url("redis://h?replica_timeout_ms=50");
    FAIL();
  } catch (const ConfigurationError& error) {
    EXPECT_THAT(error.what(), HasSubstr("no replicas= is given"));
  }
}

}  // namespace
}  // namespace docket::redis::detail
