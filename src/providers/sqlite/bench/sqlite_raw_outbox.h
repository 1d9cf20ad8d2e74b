// The raw limit of the outbox on SQLite: what docket's Outbox, Relay and SQLite outbox
// store do, written directly against the C API.
//
// Staging is docket's INSERT (BEGIN IMMEDIATE; INSERT INTO docket_outbox; COMMIT); the
// relay is the fastest shape docket's schema allows for the bench's workload (no ordering
// keys, no failures, one relay at a time):
//   claim:  BEGIN IMMEDIATE; the lease runs over deleted; the due rows above every live
//           run read in sequence order; one run [first, last] written for them; COMMIT;
//   then each id published to the PublishLog;
//   marks:  BEGIN IMMEDIATE; one UPDATE of the run's range; its run deleted; COMMIT.
// Every statement is prepared once per connection. Message ids are made before the
// clock starts (docket makes its own while staging).
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_SQLITE_BENCH_RAW_OUTBOX_SQLITE_H_
#define DOCKET_PROVIDERS_SQLITE_BENCH_RAW_OUTBOX_SQLITE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "message_ids.h"
#include "outbox_session.h"
#include "sqlite_raw.h"

namespace docket::bench {

class RawOutboxSqlite final : public OutboxSession {
 public:
  // `ids` and `log` must outlive the session; `source` is the run id.
  RawOutboxSqlite(const std::string& path, const std::string& source, const MessageIds& ids,
                  PublishLog& log, std::size_t batch);

  void stage(std::size_t message) override;
  void fill(std::size_t first, std::size_t count) override;
  RelayTally relay_pass() override;

 private:
  void insert(std::size_t message);

  std::string source_;
  const MessageIds& ids_;
  PublishLog& log_;
  std::size_t batch_;
  std::uint64_t passes_ = 0;
  RawSqlite db_;
  RawStatement begin_;
  RawStatement commit_;
  RawStatement insert_;
  RawStatement drop_over_;
  RawStatement claim_;
  RawStatement lease_;
  RawStatement complete_;
  RawStatement release_;
  std::vector<std::pair<std::int64_t, std::string>> claimed_;  // (sequence, id), reused
  std::uint64_t sink_ = 0;  // what the claims read, so that reading is not optimised out
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_SQLITE_BENCH_RAW_OUTBOX_SQLITE_H_
