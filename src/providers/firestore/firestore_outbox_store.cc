// The Firestore OutboxStore (firestore_outbox_store.h).
#include "providers/firestore/firestore_outbox_store.h"

#include <algorithm>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/firestore/transaction.h"
#include "docket/outbox/outbox_schema.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_outbox_document.h"
#include "providers/firestore/firestore_outbox_leases.h"
#include "providers/firestore/firestore_outbox_queries.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_unit.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/producer_unit_of_work.h"
#include "providers/kit/store_kind_capabilities.h"

namespace docket::firestore::detail {
namespace {

// How many times claim queries again when other relays leased candidates it read, once
// it has leased some.
constexpr int kOutboxClaimRounds = 3;
// How many rounds a claim that has leased nothing makes while each round finds due
// messages and loses every one to other relays: each lost round means another relay
// leased, so the relays together progress; one starved this long claims nothing (its
// relay polls again) rather than spin.
constexpr int kMaxOutboxClaimRaces = 100;
// The most query results claim reads a page.
constexpr std::size_t kOutboxClaimPage = 100;
// Each refused write means another relay changed the message in between; one refused
// this often in a row is starved, and says so rather than spin.
constexpr int kMaxOutboxRaces = 100;

class FirestoreOutboxStore final : public OutboxStore {
 public:
  explicit FirestoreOutboxStore(std::string_view url)
      : client_(parse_store_url(url)),
        collection_(client_.url().collection(kOutboxTable)),
        context_{client_, "Firestore outbox (collection '" + collection_ + "' at " +
                              client_.url().text + ")"} {}

  std::string_view provider_name() const noexcept override { return "firestore"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::buffered_commit_capabilities(kUnitLimits, FeedKind::kGlobalPositions);
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<firestore::Transaction>();
  }
  // Firestore makes a collection with its first document: nothing to create.
  void migrate() override {}
  std::unique_ptr<UnitOfWork> begin() override {
    return std::make_unique<kit::ProducerUnitOfWork<detail::Unit>>(context_);
  }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    detail::Unit& unit = joined_unit(tx);
    // The sequence is drawn when the unit commits (firestore_unit.h), so a unit held open
    // does not hold a number below those of the units that commit meanwhile.
    const kit::OutboxRow row{.record = record};
    unit.stage_create(collection_, record.id, outbox::outbox_fields(row), detail::Role::kCreate,
                      detail::SequencedDocument{.counter = outbox::sequence_counter(collection_),
                                                .number = &outbox::number_fields});
  }

  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    std::vector<OutboxRecord> claimed;
    std::set<std::string> seen;  // ids leased, or found taken, by this call
    for (int round = 0; claimed.size() < limit && round < kMaxOutboxClaimRaces &&
                        (claimed.empty() || round < kOutboxClaimRounds);
         ++round) {
      std::vector<Write> leases;
      std::vector<OutboxRecord> candidates;
      // Order per key: the pending messages are read from the lowest sequence on, so the
      // first one of a key met is its earliest pending one, and it holds every later one
      // (kit::holds_key); it is itself held by an earlier parked one of its key (one
      // query per key met). A lease's precondition is the message's update time, and a
      // message stops holding its key only by a committed complete or skip, so a key
      // found free stays free for the message that follows it.
      std::set<std::pair<std::string, std::string>> keys_met;
      query_pages(client_, outbox::with_status(collection_, OutboxStatus::kPending),
                  kOutboxClaimPage, [&](std::vector<Document>& page) {
                    for (const Document& document : page) {
                      kit::OutboxRow row = outbox::outbox_row_of(document, context_.store);
                      if (claimed.size() + candidates.size() == limit) {
                        return false;
                      }
                      if (row.record.ordering_key &&
                          (!keys_met.emplace(row.record.tenant, *row.record.ordering_key).second ||
                           outbox::parked_before(client_, collection_, row.record))) {
                        continue;
                      }
                      if (seen.contains(row.record.id) || !kit::leasable(row, now)) {
                        continue;
                      }
                      kit::lease(row, token, lease_until);
                      leases.push_back(rewrite(document, row));
                      candidates.push_back(std::move(row.record));
                    }
                    return claimed.size() + candidates.size() < limit;
                  });
      if (candidates.empty()) {
        break;
      }
      const std::vector<bool> applied =
          leases_.lease_each(client_, leases, token, now, lease_until, context_.store);
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        seen.insert(candidates[i].id);
        if (applied[i]) {
          claimed.push_back(std::move(candidates[i]));
        }
      }
      if (std::all_of(applied.begin(), applied.end(), [](bool a) { return a; })) {
        break;  // none taken by another relay: the query found every due message
      }
    }
    std::sort(claimed.begin(), claimed.end(),
              [](const OutboxRecord& a, const OutboxRecord& b) { return a.sequence < b.sequence; });
    return claimed;
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    const std::string one(id);
    return complete_all(std::span<const std::string>(&one, 1), token, now) == 1;
  }

  // One batchWrite for the messages whose leases this store wrote, each under its lease's
  // update time (firestore_outbox_leases.h); a get and a commit for each other one.
  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    std::vector<std::string> unresolved;
    std::size_t marked =
        leases_.complete_each(client_, collection_, ids, token, now, context_.store, unresolved);
    for (const std::string& id : unresolved) {
      if (complete_read(id, token, now)) {
        ++marked;
      }
    }
    return marked;
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    leases_.forget(id, token);
    return change_row(id, [&](kit::OutboxRow& row) {
      if (!kit::held_by(row, token)) {
        return false;
      }
      kit::fail(row, attempt);
      return true;
    });
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    return outbox::records(client_,
                           Query{.collection = collection_,
                                 .where = all_of({outbox::status_is(OutboxStatus::kParked),
                                                  field_filter(outbox::kSequence, "GREATER_THAN",
                                                               integer_value(after_sequence))}),
                                 .order_by = {{std::string(outbox::kSequence), false}},
                                 .limit = limit},
                           context_.store);
  }

  bool replay(std::string_view id, Timestamp now) override {
    return change_row(id, [&](kit::OutboxRow& row) { return kit::replay(row, now); });
  }

  bool cancel(std::string_view id, Timestamp now) override {
    return change_row(id, [&](kit::OutboxRow& row) { return kit::cancel(row, now); });
  }

  bool skip(std::string_view id, Timestamp now) override {
    return change_row(id, [&](kit::OutboxRow& row) { return kit::skip(row, now); });
  }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    const std::vector<Document> parked =
        run_query(client_, Query{.collection = collection_,
                                 .where = all_of({outbox::status_is(OutboxStatus::kParked),
                                                  field_filter(outbox::kNextAttemptAt, "LESS_THAN",
                                                               timestamp_value(cutoff))}),
                                 .order_by = {{std::string(outbox::kNextAttemptAt), false}},
                                 .limit = limit});
    return delete_unchanged(client_, collection_, parked, context_.store);
  }

  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    const std::vector<Document> done = run_query(
        client_, Query{.collection = collection_,
                       .where = all_of(
                           {outbox::status_is(OutboxStatus::kDone),
                            field_filter(outbox::kDoneAt, "LESS_THAN", timestamp_value(cutoff))}),
                       .order_by = {{std::string(outbox::kDoneAt), false}},
                       .limit = limit});
    return delete_unchanged(client_, collection_, done, context_.store);
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    return outbox::records(client_,
                           Query{.collection = collection_,
                                 .where = field_filter(outbox::kSequence, "GREATER_THAN",
                                                       integer_value(after_sequence)),
                                 .order_by = {{std::string(outbox::kSequence), false}},
                                 .limit = limit},
                           context_.store);
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    if (!Uuid::parse(id)) {
      return std::nullopt;  // no message has it (the counter document's id is no UUID)
    }
    const std::optional<Document> document = get_document(client_, collection_, id);
    if (!document) {
      return std::nullopt;
    }
    return outbox::outbox_row_of(*document, context_.store).record;
  }

 private:
  // The unit under `tx`, when it is a Firestore transaction of this store's URL.
  detail::Unit& joined_unit(HandlerTransaction& tx) const {
    detail::Unit& unit = detail::joined_unit(tx, client_, [&](const std::string& reason) {
      return ConfigurationError(context_.store + ": cannot stage through a " +
                                std::string(tx.type_name()) + ": " + reason);
    });
    if (unit.ended()) {
      throw InvalidInputError(context_.store +
                              ": the unit of work has committed already, so the message would "
                              "commit alone; stage it before commit(), or in a new unit of work");
    }
    return unit;
  }

  // The write of `row` over `document`, where it is unchanged since read.
  Write rewrite(const Document& document, const kit::OutboxRow& row) const {
    return Write{.collection = collection_,
                 .id = document.id,
                 .fields = outbox::outbox_fields(row),
                 .precondition = {.update_time = document.update_time}};
  }

  // complete() by a get and a commit: for a message whose lease this store does not
  // remember, or whose completion under it was refused.
  bool complete_read(std::string_view id, std::string_view token, Timestamp now) {
    return change_row(id, [&](kit::OutboxRow& row) {
      if (!kit::held_by(row, token)) {
        return false;
      }
      kit::complete(row, now);
      return true;
    });
  }

  // Reads the message, lets `change` decide (true: write the changed row) and writes it
  // unless it changed since the read, in which case it starts over. Whether it wrote.
  bool change_row(std::string_view id, const std::function<bool(kit::OutboxRow&)>& change) {
    if (!Uuid::parse(id)) {
      return false;
    }
    for (int race = 0; race < kMaxOutboxRaces; ++race) {
      const std::optional<Document> document = get_document(client_, collection_, id);
      if (!document) {
        return false;
      }
      kit::OutboxRow row = outbox::outbox_row_of(*document, context_.store);
      if (!change(row)) {
        return false;
      }
      const Write write = rewrite(*document, row);
      if (commit(client_, std::span<const Write>(&write, 1), context_.store).applied) {
        return true;
      }
    }
    throw InfrastructureError(context_.store + ": message '" + std::string(id) +
                              "' changed under each of " + std::to_string(kMaxOutboxRaces) +
                              " attempts to change it; retry later");
  }

  Client client_;
  std::string collection_;
  detail::UnitContext context_;
  OutboxLeases leases_;
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock&) {
  return std::make_unique<FirestoreOutboxStore>(url);
}

}  // namespace docket::firestore::detail
