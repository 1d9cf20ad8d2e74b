// The raw limit of `docket bench outbox` on Firestore (firestore_raw_outbox.h).
#include "firestore_raw_outbox.h"

#include <algorithm>
#include <optional>
#include <span>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/outbox/outbox_schema.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_outbox_document.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

namespace fs = firestore::detail;

// The fewest messages one page of the claim's query reads, as docket's claim.
constexpr std::size_t kFirestoreMinPage = 32;
// Pages one claim round reads past messages it may not lease (another relay's).
constexpr std::size_t kFirestoreDuePages = 8;
constexpr std::string_view kFirestoreRaw = "raw Firestore outbox baseline";

// Messages of `status` in `collection`, by sequence.
fs::Query outbox_with_status(const std::string& collection, OutboxStatus status) {
  return fs::Query{
      .collection = collection,
      .where = fs::field_filter(fs::outbox::kStatus, "EQUAL", fs::string_value(to_string(status))),
      .order_by = {{std::string(fs::outbox::kSequence), false}}};
}

fs::Write create_write(const std::string& collection, const OutboxRecord& record) {
  return fs::Write{.collection = collection,
                   .id = record.id,
                   .fields = fs::outbox::outbox_fields(kit::OutboxRow{.record = record}),
                   .precondition = {.exists = false}};
}

// fs::write_each over `writes` in batchWrites of at most kMaxWritesPerCommit: each write's
// new update time, or nullopt where its precondition refused it.
std::vector<std::optional<std::string>> write_each_of(const fs::Client& client,
                                                      std::span<const fs::Write> writes,
                                                      std::string_view collection) {
  std::vector<std::optional<std::string>> written;
  for (std::size_t from = 0; from < writes.size(); from += fs::kMaxWritesPerCommit) {
    const std::size_t to = std::min(writes.size(), from + fs::kMaxWritesPerCommit);
    for (auto& result : fs::write_each(client, writes.subspan(from, to - from), collection)) {
      written.push_back(std::move(result));
    }
  }
  return written;
}

}  // namespace

RawOutboxFirestore::RawOutboxFirestore(const std::string& url, const std::string& source,
                                       const MessageIds& ids, PublishLog& log, std::size_t batch)
    : client_(fs::parse_store_url(url), {.http = {.request_count = &kit::http::raw_requests()}}),
      collection_(client_.url().collection(kOutboxTable)),
      counter_(fs::outbox::sequence_counter(collection_)),
      source_(source),
      ids_(ids),
      log_(log),
      batch_(batch) {}

void RawOutboxFirestore::stage(std::size_t message) {
  fill(message, 1);
}

void RawOutboxFirestore::fill(std::size_t first, std::size_t count) {
  if (count > fs::kMaxWritesPerCommit) {
    throw InvalidInputError(std::string(kFirestoreRaw) + ": a fill of " + std::to_string(count) +
                            " messages is more than one commit holds (" +
                            std::to_string(fs::kMaxWritesPerCommit) + ")");
  }
  // The counter's increment: one commit with a transform, its result the last number.
  const std::int64_t last =
      fs::draw_sequences(client_, counter_, static_cast<std::int64_t>(count), kFirestoreRaw);
  const Timestamp now = kit::from_micros(now_micros());
  std::vector<fs::Write> creates;
  for (std::size_t m = 0; m < count; ++m) {
    creates.push_back(create_write(
        collection_,
        bench_outbox_record(ids_.id(first + m), last - static_cast<std::int64_t>(count - m) + 1,
                            now, source_)));
  }
  if (!fs::commit(client_, creates, collection_).applied) {
    throw InfrastructureError(std::string(kFirestoreRaw) + ": message " +
                              std::string(ids_.id(first)) + " (or one after it) was staged before");
  }
}

LeaseRound<RawOutboxFirestore::Leased> RawOutboxFirestore::lease_round(std::string_view token,
                                                                       Timestamp now,
                                                                       Timestamp lease_until,
                                                                       std::size_t wanted) {
  std::vector<Leased> due;
  std::vector<fs::Write> leases;
  std::size_t pages = 0;
  fs::query_pages(
      client_, outbox_with_status(collection_, OutboxStatus::kPending),
      std::max(wanted, kFirestoreMinPage), [&](std::vector<fs::Document>& page) {
        for (const fs::Document& document : page) {
          if (due.size() == wanted) {
            return false;
          }
          kit::OutboxRow row = fs::outbox::outbox_row_of(document, kFirestoreRaw);
          if (!kit::leasable(row, now)) {
            continue;  // another relay's lease, or in backoff
          }
          kit::lease(row, token, lease_until);
          leases.push_back(fs::Write{.collection = collection_,
                                     .id = document.id,
                                     .fields = fs::outbox::outbox_fields(row),
                                     .precondition = {.update_time = document.update_time}});
          due.push_back(Leased{.sequence = row.record.sequence,
                               .id = document.id,
                               .row = std::move(row),
                               .update_time = {}});
        }
        return due.size() < wanted && ++pages < kFirestoreDuePages;
      });
  LeaseRound<Leased> round{.leased = {}, .read = due.size()};
  if (due.empty()) {
    return round;
  }
  std::vector<std::optional<std::string>> written = write_each_of(client_, leases, collection_);
  for (std::size_t i = 0; i < due.size(); ++i) {
    if (written[i]) {
      due[i].update_time = std::move(*written[i]);
      round.leased.push_back(std::move(due[i]));
    }
  }
  return round;
}

RelayTally RawOutboxFirestore::relay_pass() {
  const std::string token = Uuid::v4().to_string();
  const Timestamp now = kit::from_micros(now_micros());
  const Timestamp lease_until = kit::from_micros(kit::to_micros(now) + kRawOutboxLeaseMicros);
  std::vector<Leased> claimed = lease_in_rounds<Leased>(
      batch_, [&](std::size_t wanted) { return lease_round(token, now, lease_until, wanted); });
  RelayTally tally = publish_in_sequence_order(claimed, log_);
  if (claimed.empty()) {
    return tally;
  }
  const Timestamp done_at = kit::from_micros(now_micros());
  std::vector<fs::Write> completes;
  for (Leased& message : claimed) {
    kit::complete(message.row, done_at);
    completes.push_back(fs::Write{.collection = collection_,
                                  .id = message.id,
                                  .fields = fs::outbox::outbox_fields(message.row),
                                  .precondition = {.update_time = message.update_time}});
  }
  for (const auto& written : write_each_of(client_, completes, collection_)) {
    tally.published += written ? 1 : 0;
  }
  tally.not_done = tally.claimed - tally.published;
  return tally;
}

OutboxRunRows firestore_outbox_run_rows(const std::string& url, std::string_view run_id) {
  const fs::Client client(fs::parse_store_url(url), {.http = {.request_count = nullptr}});
  OutboxRunRows rows;
  for (const fs::Document& document : fs::run_query(
           client, fs::Query{.collection = client.url().collection(kOutboxTable),
                   .where = fs::field_filter("source", "EQUAL", fs::string_value(run_id))})) {
    const kit::OutboxRow row = fs::outbox::outbox_row_of(document, kFirestoreRaw);
    rows.ids.push_back(row.record.id);
    rows.done += row.record.status == OutboxStatus::kDone ? 1 : 0;
  }
  return rows;
}

std::int64_t firestore_pending_outbox_rows(const std::string& url) {
  const fs::Client client(fs::parse_store_url(url), {.http = {.request_count = nullptr}});
  return static_cast<std::int64_t>(
      fs::run_query(
          client, outbox_with_status(client.url().collection(kOutboxTable), OutboxStatus::kPending))
          .size());
}

}  // namespace docket::bench
