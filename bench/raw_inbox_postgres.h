// The raw limit of the inbox on PostgreSQL: what docket's dispatcher and PostgreSQL
// store do for a message, written directly against libpq.
//
// The dedup insert is the one docket's store issues (src/providers/postgres/
// unit_of_work.cc), verbatim, with its parameters bound as docket binds them, in the
// same transaction shape:
//   single message: BEGIN ISOLATION LEVEL READ COMMITTED; the dedup INSERT ... ON
//                   CONFLICT DO NOTHING; if it inserted, the effect INSERT and COMMIT,
//                   else ROLLBACK;
//   batch:          BEGIN ...; per message SAVEPOINT docket_message, the dedup INSERT,
//                   the effect INSERT if it inserted, RELEASE SAVEPOINT docket_message;
//                   COMMIT.
// processed_at is read from the system clock per message, as docket's store does.
// Every statement (BEGIN and COMMIT included) is prepared once per connection: the
// honest lower bound, which docket is held to.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_BENCH_RAW_INBOX_POSTGRES_H_
#define DOCKET_BENCH_RAW_INBOX_POSTGRES_H_

#include <span>
#include <string>
#include <string_view>

#include "inbox_workload.h"
#include "raw_postgres.h"

namespace docket::bench {

class RawInboxPostgres {
 public:
  // `url`: a libpq URL whose search_path is the raw baseline's schema.
  RawInboxPostgres(const std::string& url, std::string_view consumer_id);

  // One message in its own transaction.
  void deliver(const BenchDelivery& delivery, DispatchCounts& counts);
  // The messages in one transaction, a savepoint each.
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts);

 private:
  // Runs the dedup insert; true when it inserted the row.
  bool record(const BenchDelivery& delivery);
  void insert_effect(const BenchDelivery& delivery);

  std::string consumer_id_;
  RawPostgres db_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_RAW_INBOX_POSTGRES_H_
