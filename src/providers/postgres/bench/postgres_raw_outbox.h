// The raw limit of the outbox on PostgreSQL: what docket's Outbox, Relay and
// PostgreSQL outbox store do, written directly against libpq.
//
// The statements are those of src/providers/postgres/postgres_outbox_store.cc, with the
// parameters bound as docket binds them, each sent the fewest times the work allows:
//   stage:  the INSERT INTO docket_outbox alone, in autocommit (one round trip; a
//           fill of several messages: BEGIN, the inserts, COMMIT), with the NOTIFY
//           that wakes relays in the same statement, as docket sends it;
//   relay:  the claim UPDATE ... FOR UPDATE SKIP LOCKED ... RETURNING (autocommit,
//           under a fresh lease token), the rows put in sequence order, each id
//           published to the PublishLog, then ONE mark-done UPDATE for the batch
//           (id = ANY of a text[]).
// Every statement (BEGIN and COMMIT included) is prepared once per connection.
// Message ids are made before the clock starts (docket makes its own while staging).
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_OUTBOX_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_OUTBOX_POSTGRES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "message_ids.h"
#include "outbox_session.h"
#include "postgres_raw.h"

namespace docket::bench {

class RawOutboxPostgres final : public OutboxSession {
 public:
  // `url`: a libpq URL whose search_path is the raw baseline's schema, migrated.
  // `ids` and `log` must outlive the session; `source` is the run id.
  RawOutboxPostgres(const std::string& url, const std::string& source, const MessageIds& ids,
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
  RawPostgres db_;
  std::vector<std::pair<std::int64_t, std::string>> claimed_;  // (sequence, id), reused
  std::string done_ids_;    // the text[] literal of a pass's published ids, reused
  std::uint64_t sink_ = 0;  // what the claims read, so that reading is not optimised out
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_OUTBOX_POSTGRES_H_
