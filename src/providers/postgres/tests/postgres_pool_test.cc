// The connection pool: bounded, blocking with a timeout, replacing dead connections.
#include "providers/postgres/postgres_pool.h"

#include <atomic>
#include <latch>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "providers/postgres/tests/postgres_fixture.h"

namespace docket::postgres::detail {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

class PostgresPoolTest : public PostgresTest {
 protected:
  // Ends the server process behind `pid` from another session and waits until it exited.
  void terminate_backend(int pid) {
    Connection admin(url_);
    EXPECT_TRUE(exec(admin, "SELECT pg_terminate_backend($1::int, 10000)", pid).boolean(0, 0));
  }
};

TEST_F(PostgresPoolTest, NeverLeasesMoreThanMaxSizeUnderContention) {
  Pool pool(url_, {.max_size = 4, .acquire_timeout = 60s});
  std::atomic<int> live{0};
  std::atomic<int> most_live{0};
  std::atomic<int> done{0};
  std::latch start(8);
  std::vector<std::jthread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      for (int i = 0; i < 200; ++i) {
        Pool::Lease lease = pool.acquire();
        int now = live.fetch_add(1) + 1;
        for (int seen = most_live.load();
             now > seen && !most_live.compare_exchange_weak(seen, now);) {
        }
        EXPECT_EQ(exec(*lease, "SELECT $1::bigint", i).int64(0, 0), i);
        live.fetch_sub(1);
        done.fetch_add(1);
      }
    });
  }
  threads.clear();  // joins
  EXPECT_EQ(done.load(), 1600);
  EXPECT_LE(most_live.load(), 4);
  EXPECT_GE(most_live.load(), 1);
  EXPECT_LE(pool.open_connections(), 4u);
  EXPECT_EQ(pool.open_connections(), pool.idle_connections());
}

TEST_F(PostgresPoolTest, AcquireTimesOutWithAClearErrorWhenAllAreLeased) {
  Pool pool(url_, {.max_size = 1, .acquire_timeout = 50ms});
  {
    Pool::Lease held = pool.acquire();
    try {
      pool.acquire();
      FAIL() << "a second connection was leased from a pool of one";
    } catch (const InfrastructureError& error) {
      EXPECT_THAT(error.what(), HasSubstr("timed out after 50 ms"));
      EXPECT_THAT(error.what(), HasSubstr("max_size"));
    }
  }
  EXPECT_NO_THROW(pool.acquire());
}

TEST_F(PostgresPoolTest, AWaitingAcquireGetsTheReturnedConnection) {
  Pool pool(url_, {.max_size = 1, .acquire_timeout = 60s});
  std::optional<Pool::Lease> held(pool.acquire());
  const int pid = (*held)->backend_pid();
  std::latch waiting(1);
  int waiter_pid = 0;
  std::jthread waiter([&] {
    waiting.count_down();
    Pool::Lease lease = pool.acquire();
    waiter_pid = lease->backend_pid();
  });
  waiting.wait();
  held.reset();
  waiter.join();
  EXPECT_EQ(waiter_pid, pid);
}

TEST_F(PostgresPoolTest, ReplacesAConnectionTerminatedWhileIdle) {
  Pool pool(url_, {.max_size = 1});
  int first_pid = pool.acquire()->backend_pid();
  terminate_backend(first_pid);
  Pool::Lease lease = pool.acquire();
  EXPECT_NE(lease->backend_pid(), first_pid);
  EXPECT_EQ(exec(*lease, "SELECT 1").int64(0, 0), 1);
  EXPECT_EQ(pool.open_connections(), 1u);
}

TEST_F(PostgresPoolTest, DiscardsAConnectionThatBrokeWhileLeased) {
  Pool pool(url_, {.max_size = 1});
  int first_pid = 0;
  {
    Pool::Lease lease = pool.acquire();
    first_pid = lease->backend_pid();
    terminate_backend(first_pid);
    EXPECT_THROW(exec(*lease, "SELECT 1"), InfrastructureError);
    EXPECT_FALSE(lease->healthy());
  }
  EXPECT_EQ(pool.open_connections(), 0u);
  Pool::Lease lease = pool.acquire();
  EXPECT_NE(lease->backend_pid(), first_pid);
  EXPECT_EQ(exec(*lease, "SELECT 1").int64(0, 0), 1);
}

TEST_F(PostgresPoolTest, DiscardsAConnectionReturnedInsideATransaction) {
  Pool pool(url_, {.max_size = 2});
  {
    Pool::Lease lease = pool.acquire();
    exec(*lease, "BEGIN");
  }
  EXPECT_EQ(pool.open_connections(), 0u);
  EXPECT_TRUE(pool.acquire()->idle());
}

TEST_F(PostgresPoolTest, RefusesBadOptions) {
  EXPECT_THROW(Pool(url_, {.max_size = 0}), ConfigurationError);
  EXPECT_THROW(Pool(url_, {.max_size = 1, .acquire_timeout = -1ms}), ConfigurationError);
  EXPECT_THROW(Pool("host=127.0.0.1 'broken"), ConfigurationError);
}

}  // namespace
}  // namespace docket::postgres::detail
