// A history checker for the event store, in the spirit of Jepsen's: real threads load
// streams and append to them with the expected versions they last saw, every operation
// is logged with its outcome, and afterwards the log is checked against the streams as
// stored:
//   - the stored streams have gap-free versions and no event twice;
//   - an acknowledged append is never lost: its events sit at the versions it was told,
//     in its order;
//   - a refused append (a version conflict) wrote nothing;
//   - an append that failed otherwise (the outcome unknown) is in whole or not at all;
//   - nothing is stored that no append wrote;
//   - every load saw a prefix of the stream's one final order, and a thread never saw a
//     stream shrink or miss its own acknowledged events (monotonic reads, read your
//     writes).
#include <gtest/gtest-spi.h>

#include <algorithm>
#include <cstddef>
#include <latch>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using EventStoreHistory = StoreConformance;

constexpr int kHistoryThreads = 6;
constexpr int kHistoryOps = 50;
constexpr int kHistoryStreams = 3;

enum class Outcome { kRead, kAcknowledged, kConflict, kUnknown };

struct LoggedOp {
  int thread = 0;
  int stream = 0;
  Outcome outcome = Outcome::kRead;
  std::vector<std::string> written{};  // an append's payloads, in order
  std::int64_t new_version = -1;       // acknowledged: the version of its last event
  std::vector<std::string> read{};     // a load's payloads, in version order
  std::string failure{};               // kUnknown: what was thrown
};

// "t2.o17.e1": thread 2, its operation 17, event 1. Unique across the run.
std::string history_payload(int thread, int op, int index) {
  return "t" + std::to_string(thread) + ".o" + std::to_string(op) + ".e" + std::to_string(index);
}

// One client: a random mix of loads and appends of 1 to 3 events, each append expecting
// the version this thread last saw of the stream.
std::vector<LoggedOp> run_client(EventStore& store, const std::vector<StreamId>& streams,
                                 int thread, std::latch& start) {
  std::mt19937 random(static_cast<std::mt19937::result_type>(1234 + thread));
  std::vector<ExpectedVersion> last_seen(streams.size(), ExpectedVersion::no_stream());
  std::vector<LoggedOp> log;
  start.arrive_and_wait();
  for (int op = 0; op < kHistoryOps; ++op) {
    LoggedOp entry{.thread = thread, .stream = static_cast<int>(random() % streams.size())};
    const StreamId& stream = streams[static_cast<std::size_t>(entry.stream)];
    ExpectedVersion& seen = last_seen[static_cast<std::size_t>(entry.stream)];
    if (random() % 5 < 2) {
      for (const RecordedEvent& event : store.load(stream)) {
        entry.read.push_back(event.payload);
      }
      seen = entry.read.empty()
                 ? ExpectedVersion::no_stream()
                 : ExpectedVersion::exactly(static_cast<std::int64_t>(entry.read.size()) - 1);
      log.push_back(std::move(entry));
      continue;
    }
    std::vector<NewEvent> batch;
    const int count = 1 + static_cast<int>(random() % 3);
    for (int i = 0; i < count; ++i) {
      entry.written.push_back(history_payload(thread, op, i));
      batch.push_back(NewEvent{.type = "history", .payload = entry.written.back()});
    }
    try {
      const AppendResult result = store.append(stream, seen, batch);
      if (result.succeeded()) {
        entry.outcome = Outcome::kAcknowledged;
        entry.new_version = result.success().new_version;
        seen = ExpectedVersion::exactly(entry.new_version);
      } else {
        entry.outcome = Outcome::kConflict;
        seen = ExpectedVersion::from_value(result.conflict().actual_version);
      }
    } catch (const std::exception& e) {
      entry.outcome = Outcome::kUnknown;
      entry.failure = e.what();
    }
    log.push_back(std::move(entry));
  }
  return log;
}

// Where each payload sits in its stream's final history.
struct Placement {
  int stream = 0;
  std::size_t version = 0;
};

void check_history(const std::vector<LoggedOp>& log,
                   const std::vector<std::vector<std::string>>& final_streams) {
  std::map<std::string, Placement> placed;
  for (std::size_t s = 0; s < final_streams.size(); ++s) {
    for (std::size_t v = 0; v < final_streams[s].size(); ++v) {
      const bool fresh =
          placed.emplace(final_streams[s][v], Placement{static_cast<int>(s), v}).second;
      EXPECT_TRUE(fresh) << "event " << final_streams[s][v] << " is stored twice";
    }
  }
  std::map<std::string, bool> written;  // payload -> by an append that may have applied
  // The events a thread has seen acknowledged, per stream: its reads must hold them.
  std::map<std::pair<int, int>, std::size_t> known_length;
  for (const LoggedOp& op : log) {
    const auto& history = final_streams[static_cast<std::size_t>(op.stream)];
    const auto key = std::make_pair(op.thread, op.stream);
    switch (op.outcome) {
      case Outcome::kRead: {
        if (op.read.size() > history.size()) {
          ADD_FAILURE() << "a load of stream " << op.stream << " saw more than was ever stored";
          break;
        }
        EXPECT_TRUE(std::equal(op.read.begin(), op.read.end(), history.begin()))
            << "a load of stream " << op.stream << " is not a prefix of its one order";
        EXPECT_GE(op.read.size(), known_length[key])
            << "thread " << op.thread << " saw stream " << op.stream
            << " shrink, or miss its own acknowledged append";
        known_length[key] = std::max(known_length[key], op.read.size());
        break;
      }
      case Outcome::kAcknowledged: {
        const auto first = static_cast<std::size_t>(op.new_version + 1) - op.written.size();
        for (std::size_t i = 0; i < op.written.size(); ++i) {
          const auto at = placed.find(op.written[i]);
          if (at == placed.end()) {
            ADD_FAILURE() << "acknowledged event " << op.written[i] << " was lost";
            continue;
          }
          EXPECT_EQ(at->second.stream, op.stream) << op.written[i];
          EXPECT_EQ(at->second.version, first + i) << op.written[i]
                                                   << " is not where its "
                                                      "append was told";
          written[op.written[i]] = true;
        }
        known_length[key] = std::max(known_length[key], first + op.written.size());
        break;
      }
      case Outcome::kConflict:
        for (const std::string& payload : op.written) {
          EXPECT_FALSE(placed.contains(payload)) << "a refused append wrote " << payload;
        }
        break;
      case Outcome::kUnknown: {
        const auto stored = static_cast<std::size_t>(
            std::count_if(op.written.begin(), op.written.end(),
                          [&](const std::string& payload) { return placed.contains(payload); }));
        EXPECT_TRUE(stored == 0 || stored == op.written.size())
            << "an append that failed (" << op.failure << ") is stored in part";
        if (stored == op.written.size()) {
          const std::size_t first = placed.at(op.written.front()).version;
          for (std::size_t i = 0; i < op.written.size(); ++i) {
            EXPECT_EQ(placed.at(op.written[i]).version, first + i) << op.written[i];
          }
        }
        for (const std::string& payload : op.written) {
          written[payload] = true;
        }
        break;
      }
    }
  }
  for (const auto& [payload, where] : placed) {
    EXPECT_TRUE(written.contains(payload)) << "stored event " << payload << " was never appended";
  }
}

TEST_P(EventStoreHistory, ConcurrentClientsHistoryHoldsEveryGuarantee) {
  std::vector<StreamId> streams;
  for (int s = 0; s < kHistoryStreams; ++s) {
    streams.push_back(account("history-" + std::to_string(s)));
  }
  std::latch start(kHistoryThreads);
  std::vector<std::vector<LoggedOp>> logs(kHistoryThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kHistoryThreads; ++t) {
    threads.emplace_back(
        [&, t] { logs[static_cast<std::size_t>(t)] = run_client(*events_, streams, t, start); });
  }
  for (auto& thread : threads) {
    thread.join();
  }

  std::vector<std::vector<std::string>> final_streams;
  std::size_t stored = 0;
  for (const StreamId& stream : streams) {
    std::vector<std::string> payloads;
    for (const RecordedEvent& event : events_->load(stream)) {
      EXPECT_EQ(event.version, static_cast<std::int64_t>(payloads.size())) << "a version gap";
      payloads.push_back(event.payload);
    }
    stored += payloads.size();
    final_streams.push_back(std::move(payloads));
  }
  std::vector<LoggedOp> log;
  std::size_t acknowledged = 0;
  for (auto& thread_log : logs) {
    for (LoggedOp& op : thread_log) {
      acknowledged += op.outcome == Outcome::kAcknowledged ? 1 : 0;
      log.push_back(std::move(op));
    }
  }
  // Each thread's log is in its own order; the check reads them thread after thread,
  // which keeps every thread's order (all it relies on).
  check_history(log, final_streams);
  EXPECT_GT(acknowledged, 0u) << "no append succeeded: the run checked nothing";
  expect_store_total(stored);
}

// The checker itself: each guarantee, broken on purpose, is reported. A broken history
// breaks several guarantees at once: every failure the checker reported, joined.
std::string reported(const std::vector<LoggedOp>& log,
                     const std::vector<std::vector<std::string>>& final_streams) {
  ::testing::TestPartResultArray results;
  {
    const ::testing::ScopedFakeTestPartResultReporter capture(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    check_history(log, final_streams);
  }
  std::string text;
  for (int i = 0; i < results.size(); ++i) {
    text += results.GetTestPartResult(i).message();
    text += '\n';
  }
  return text;
}

LoggedOp acknowledged(int stream, std::vector<std::string> written, std::int64_t new_version) {
  return {.thread = 0,
          .stream = stream,
          .outcome = Outcome::kAcknowledged,
          .written = std::move(written),
          .new_version = new_version};
}
LoggedOp read_of(int stream, std::vector<std::string> read) {
  return {.thread = 0, .stream = stream, .outcome = Outcome::kRead, .read = std::move(read)};
}

TEST(HistoryChecker, ASoundHistoryPasses) {
  EXPECT_EQ(reported({acknowledged(0, {"a", "b"}, 1), read_of(0, {"a", "b"}),
                      acknowledged(0, {"c"}, 2), read_of(0, {"a", "b", "c"})},
                     {{"a", "b", "c"}}),
            "");
}

TEST(HistoryChecker, ALostAcknowledgedAppendIsReported) {
  EXPECT_THAT(reported({acknowledged(0, {"a"}, 0), acknowledged(0, {"b"}, 1)}, {{"a"}}),
              ::testing::HasSubstr("acknowledged event b was lost"));
}

TEST(HistoryChecker, AnEventAtAnotherVersionThanAcknowledgedIsReported) {
  EXPECT_THAT(reported({acknowledged(0, {"a"}, 1)}, {{"x", "a"}}),
              ::testing::HasSubstr("never appended"));
  EXPECT_THAT(reported({acknowledged(0, {"a"}, 0), acknowledged(0, {"x"}, 1)}, {{"x", "a"}}),
              ::testing::HasSubstr("is not where its append was told"));
}

TEST(HistoryChecker, ARefusedAppendThatWroteIsReported) {
  LoggedOp refused{.thread = 1, .stream = 0, .outcome = Outcome::kConflict, .written = {"b"}};
  EXPECT_THAT(reported({acknowledged(0, {"a"}, 0), refused}, {{"a", "b"}}),
              ::testing::HasSubstr("a refused append wrote b"));
}

TEST(HistoryChecker, AnUnknownAppendStoredInPartIsReported) {
  LoggedOp unknown{.thread = 1,
                   .stream = 0,
                   .outcome = Outcome::kUnknown,
                   .written = {"b", "c"},
                   .failure = "timeout"};
  EXPECT_THAT(reported({acknowledged(0, {"a"}, 0), unknown}, {{"a", "b"}}),
              ::testing::HasSubstr("stored in part"));
}

TEST(HistoryChecker, AReadOutOfTheOneOrderOrShrinkingIsReported) {
  EXPECT_THAT(reported({acknowledged(0, {"a", "b"}, 1), read_of(0, {"b"})}, {{"a", "b"}}),
              ::testing::HasSubstr("is not a prefix of its one order"));
  EXPECT_THAT(reported({acknowledged(0, {"a", "b"}, 1), read_of(0, {"a"})}, {{"a", "b"}}),
              ::testing::HasSubstr("miss its own acknowledged append"));
  EXPECT_THAT(reported({acknowledged(0, {"a"}, 0)}, {{"a", "a"}}),
              ::testing::HasSubstr("is stored twice"));
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreHistory, ::testing::ValuesIn(event_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
