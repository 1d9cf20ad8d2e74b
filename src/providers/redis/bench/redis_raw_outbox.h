// The raw limit of `docket bench outbox` on Redis: what docket's Outbox, Relay and Redis
// outbox store do to a message (a hash P outbox:message:{id} with the fields docket
// writes, its sequence drawn by INCR when it is written, its id in the feed by sequence
// and in the due set by when it may go; leased, published, marked done and moved from
// the due set to the done set), sent directly through hiredis, each step ONE EVALSHA of
// a script loaded once per connection:
//   stage:  refuses an id staged before (EXISTS), then writes the message (a fill of
//           several messages: all in one run);
//   relay:  claim: the due ids up to now, lowest score first, at most the batch, each
//           leased (HSET of a fresh token and lease_until) and put back in the due set
//           at lease_until, their hashes returned; the rows are put in sequence order
//           and published to the PublishLog; then ONE run marks them all done where
//           they still hold the lease.
// The bench's messages have no ordering key and never fail, so the raw side needs
// neither docket's per-key sets nor its ready set (which keeps a backlog's claims
// short and in sequence order): the due set alone finds what is due.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_OUTBOX_H_
#define DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_OUTBOX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "message_ids.h"
#include "outbox_session.h"
#include "outbox_workload.h"
#include "redis_raw.h"

namespace docket::bench {

class RawOutboxRedis final : public OutboxSession {
 public:
  // `url`: the raw side's Redis store URL. `ids` and `log` must outlive the session;
  // `source` is the run id.
  RawOutboxRedis(const std::string& url, const std::string& source, const MessageIds& ids,
                 PublishLog& log, std::size_t batch);

  void stage(std::size_t message) override;
  void fill(std::size_t first, std::size_t count) override;
  RelayTally relay_pass() override;

 private:
  std::string source_;
  const MessageIds& ids_;
  PublishLog& log_;
  std::string batch_;
  RawRedis db_;
  std::string stage_sha_;
  std::string claim_sha_;
  std::string complete_sha_;
  std::string sequence_key_;
  std::string feed_key_;
  std::string due_key_;
  std::string done_key_;
  std::string messages_namespace_;
  std::vector<std::string_view> args_;
  std::vector<std::pair<long long, std::string>> claimed_;  // (sequence, id), reused
};

// The run `run_id`'s messages in the side `url` (their source), read bypassing docket.
OutboxRunRows redis_outbox_run_rows(const std::string& url, std::string_view run_id);
// The pending messages in the side `url`: those in the due and ready sets.
std::int64_t redis_pending_outbox_rows(const std::string& url);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_OUTBOX_H_
