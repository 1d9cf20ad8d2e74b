// A history checker for the saga store, the saga counterpart of history_test.cc: real
// threads load sagas and save them with the version they last saw, every operation is
// logged with its outcome, and the log is checked against the sagas as stored:
//   - versions are never reused: no two acknowledged saves were told one version;
//   - an acknowledged save is never lost: the stored version is at least every
//     acknowledged one, and the saves that may have applied (acknowledged, or failed
//     with the outcome unknown) account for every version up to it;
//   - the stored state is the state of the save told the stored version (or of one
//     whose outcome is unknown);
//   - a refused save (a conflict) wrote nothing: its state is stored nowhere;
//   - every load saw a state some save wrote, at the version that save was told, and a
//     thread never saw a saga go back or miss its own acknowledged save.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include <algorithm>
#include <cstdint>
#include <latch>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {
namespace saga_history {

using SagaStoreHistory = StoreConformance;

constexpr int kThreads = 6;
constexpr int kOps = 40;
constexpr int kSagas = 2;

enum class Outcome { kRead, kAcknowledged, kConflict, kUnknown };

struct SagaOp {
  int thread = 0;
  int saga = 0;
  Outcome outcome = Outcome::kRead;
  std::string state{};        // a save's state, or the state a load saw
  std::int64_t version = -1;  // a save's new version (acknowledged), or the version read
  std::string failure{};      // kUnknown: what was thrown
};

// One client: a random mix of loads and saves, each save expecting the version this
// thread last saw of the saga, its state unique in the run ("t2.o17").
std::vector<SagaOp> run_client(SagaStore& store, const std::vector<SagaId>& sagas, int thread,
                               std::latch& start) {
  std::mt19937 random(static_cast<std::mt19937::result_type>(4321 + thread));
  std::vector<std::int64_t> last_seen(sagas.size(), kNewSaga);
  std::vector<SagaOp> log;
  start.arrive_and_wait();
  for (int op = 0; op < kOps; ++op) {
    SagaOp entry{.thread = thread, .saga = static_cast<int>(random() % sagas.size())};
    const SagaId& saga = sagas[static_cast<std::size_t>(entry.saga)];
    std::int64_t& seen = last_seen[static_cast<std::size_t>(entry.saga)];
    if (random() % 5 < 2) {
      if (const std::optional<SagaRecord> loaded = store.load(saga)) {
        entry.state = loaded->state;
        entry.version = loaded->version;
      }
      seen = entry.version;
      log.push_back(std::move(entry));
      continue;
    }
    entry.state = "t" + std::to_string(thread) + ".o" + std::to_string(op);
    try {
      const SagaSaveResult result = store.save(saga, seen, entry.state);
      if (result.succeeded()) {
        entry.outcome = Outcome::kAcknowledged;
        entry.version = result.success().new_version;
        seen = entry.version;
      } else {
        entry.outcome = Outcome::kConflict;
        seen = result.conflict().actual_version;
      }
    } catch (const std::exception& e) {
      entry.outcome = Outcome::kUnknown;
      entry.failure = e.what();
    }
    log.push_back(std::move(entry));
  }
  return log;
}

// `final_sagas`: each saga as stored at the end (nullopt: none).
void check_history(const std::vector<SagaOp>& log,
                   const std::vector<std::optional<SagaRecord>>& final_sagas) {
  for (std::size_t s = 0; s < final_sagas.size(); ++s) {
    const int saga = static_cast<int>(s);
    std::map<std::int64_t, std::string> told;          // version -> state of its acknowledged save
    std::map<std::string, std::int64_t> acknowledged;  // state -> version
    std::vector<std::string> unknown;
    std::vector<std::string> refused;
    for (const SagaOp& op : log) {
      if (op.saga != saga) {
        continue;
      }
      if (op.outcome == Outcome::kAcknowledged) {
        const bool fresh = told.emplace(op.version, op.state).second;
        EXPECT_TRUE(fresh) << "saga " << saga << ": version " << op.version
                           << " was told to two saves";
        acknowledged[op.state] = op.version;
      } else if (op.outcome == Outcome::kUnknown) {
        unknown.push_back(op.state);
      } else if (op.outcome == Outcome::kConflict) {
        refused.push_back(op.state);
      }
    }
    const std::optional<SagaRecord>& stored = final_sagas[s];
    const std::int64_t stored_version = stored ? stored->version : kNewSaga;
    if (!told.empty()) {
      EXPECT_GE(stored_version, told.rbegin()->first)
          << "saga " << saga << ": an acknowledged save was lost";
    }
    EXPECT_LE(stored_version + 1, static_cast<std::int64_t>(told.size() + unknown.size()))
        << "saga " << saga << " is at a version no save accounts for";
    EXPECT_GE(stored_version + 1, static_cast<std::int64_t>(told.size()))
        << "saga " << saga << " holds fewer versions than saves were acknowledged";
    if (stored) {
      const auto at = told.find(stored->version);
      if (at != told.end()) {
        EXPECT_EQ(stored->state, at->second)
            << "saga " << saga << " holds another state than the save told its version";
      } else {
        EXPECT_NE(std::find(unknown.begin(), unknown.end(), stored->state), unknown.end())
            << "saga " << saga << " holds " << stored->state << ", which no save wrote there";
      }
      EXPECT_EQ(std::find(refused.begin(), refused.end(), stored->state), refused.end())
          << "a refused save wrote " << stored->state;
    }
    std::map<int, std::int64_t> known;  // thread -> the latest version it saw or was told
    for (const SagaOp& op : log) {
      if (op.saga != saga) {
        continue;
      }
      std::int64_t& seen = known.try_emplace(op.thread, kNewSaga).first->second;
      if (op.outcome == Outcome::kAcknowledged) {
        seen = std::max(seen, op.version);
      } else if (op.outcome == Outcome::kRead) {
        EXPECT_GE(op.version, seen) << "thread " << op.thread << " saw saga " << saga
                                    << " go back, or miss its own acknowledged save";
        seen = std::max(seen, op.version);
        if (op.version < 0) {
          continue;
        }
        EXPECT_LE(op.version, stored_version)
            << "a load of saga " << saga << " saw a version beyond the last";
        const auto at = acknowledged.find(op.state);
        if (at != acknowledged.end()) {
          EXPECT_EQ(at->second, op.version) << "a load of saga " << saga << " saw " << op.state
                                            << " at another version than its save's";
        } else {
          EXPECT_NE(std::find(unknown.begin(), unknown.end(), op.state), unknown.end())
              << "a load of saga " << saga << " saw " << op.state << ", which no save wrote";
        }
      }
    }
  }
}

TEST_P(SagaStoreHistory, ConcurrentLoadsAndSavesLeaveAHistoryTheCheckerAccepts) {
  std::vector<SagaId> sagas;
  for (int s = 0; s < kSagas; ++s) {
    sagas.push_back(checkout("history-" + std::to_string(s)));
  }
  std::latch start(kThreads);
  std::vector<std::vector<SagaOp>> logs(kThreads);
  std::vector<std::thread> clients;
  for (int t = 0; t < kThreads; ++t) {
    clients.emplace_back([&, t] {
      TenantScope scope(tenant("acme"));
      logs[static_cast<std::size_t>(t)] = run_client(*sagas_, sagas, t, start);
    });
  }
  for (std::thread& client : clients) {
    client.join();
  }
  std::vector<SagaOp> log;
  std::size_t acknowledged = 0;
  for (const std::vector<SagaOp>& client_log : logs) {
    for (const SagaOp& op : client_log) {
      acknowledged += op.outcome == Outcome::kAcknowledged ? 1 : 0;
      log.push_back(op);
    }
  }
  EXPECT_GT(acknowledged, 0u) << "no save went through: the run checked nothing";
  std::vector<std::optional<SagaRecord>> final_sagas;
  for (const SagaId& saga : sagas) {
    final_sagas.push_back(sagas_->load(saga));
  }
  check_history(log, final_sagas);
}

// The checker itself: a history with a known fault must be reported.
std::string reported(const std::vector<SagaOp>& log,
                     const std::vector<std::optional<SagaRecord>>& final_sagas) {
  ::testing::TestPartResultArray results;
  {
    const ::testing::ScopedFakeTestPartResultReporter capture(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    check_history(log, final_sagas);
  }
  std::string text;
  for (int i = 0; i < results.size(); ++i) {
    text += results.GetTestPartResult(i).message();
    text += '\n';
  }
  return text;
}

SagaOp saved(std::string state, std::int64_t version, int thread = 0) {
  return {.thread = thread,
          .saga = 0,
          .outcome = Outcome::kAcknowledged,
          .state = std::move(state),
          .version = version};
}
SagaOp loaded(std::string state, std::int64_t version, int thread = 0) {
  return {.thread = thread,
          .saga = 0,
          .outcome = Outcome::kRead,
          .state = std::move(state),
          .version = version};
}
std::optional<SagaRecord> stored(std::string state, std::int64_t version) {
  return SagaRecord{.version = version, .state = std::move(state)};
}

TEST(SagaHistoryChecker, ASoundHistoryPasses) {
  EXPECT_EQ(
      reported({saved("a", 0), loaded("a", 0), saved("b", 1), loaded("b", 1, 1)}, {stored("b", 1)}),
      "");
}

TEST(SagaHistoryChecker, AReusedVersionOrALostSaveIsReported) {
  EXPECT_THAT(reported({saved("a", 0), saved("b", 0, 1)}, {stored("a", 0)}),
              ::testing::HasSubstr("version 0 was told to two saves"));
  EXPECT_THAT(reported({saved("a", 0), saved("b", 1)}, {stored("a", 0)}),
              ::testing::HasSubstr("an acknowledged save was lost"));
}

TEST(SagaHistoryChecker, AStateNoSaveWroteThereIsReported) {
  EXPECT_THAT(reported({saved("a", 0), saved("b", 1)}, {stored("a", 1)}),
              ::testing::HasSubstr("another state than the save told its version"));
  SagaOp refused{.thread = 1, .saga = 0, .outcome = Outcome::kConflict, .state = "x"};
  SagaOp unknown{.thread = 2, .saga = 0, .outcome = Outcome::kUnknown, .state = "x"};
  EXPECT_THAT(reported({saved("a", 0), refused, unknown}, {stored("x", 1)}),
              ::testing::HasSubstr("a refused save wrote x"));
}

TEST(SagaHistoryChecker, AReadGoingBackOrOfAnUnwrittenStateIsReported) {
  EXPECT_THAT(reported({saved("a", 0), saved("b", 1), loaded("a", 0)}, {stored("b", 1)}),
              ::testing::HasSubstr("go back, or miss its own acknowledged save"));
  EXPECT_THAT(reported({saved("a", 0), loaded("z", 0, 1)}, {stored("a", 0)}),
              ::testing::HasSubstr("which no save wrote"));
  EXPECT_THAT(reported({saved("a", 0), saved("b", 1), loaded("b", 0, 1)}, {stored("b", 1)}),
              ::testing::HasSubstr("at another version than its save's"));
}

INSTANTIATE_TEST_SUITE_P(Providers, SagaStoreHistory, ::testing::ValuesIn(saga_providers()),
                         provider_name);

}  // namespace saga_history
}  // namespace
}  // namespace docket::conformance::eventsourcing
