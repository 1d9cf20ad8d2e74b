// Consumer checkpoints: an opaque resume position per (ambient tenant, consumer id)
// for pull consumers.
//
// A checkpoint is a performance cursor, not the dedup boundary: a row committed late
// can sit behind it. Read a window that overlaps the checkpoint, pass its ids through
// InboxStore::filter_unprocessed, dispatch those, then advance the checkpoint only to
// a position whose predecessors are all processed.
//
// get/set run in their own transaction, never in a caller's unit of work, so an
// advance is durable when set() returns. One advancer per consumer is assumed.
//
// Listing (list): what an operator reads (`docket projections status`): the stored
// checkpoints of every tenant or one, of every consumer or one, with their positions
// and the time each was last set, a page of at most `limit` at a time through the
// store's own read (an index range on SQLite and PostgreSQL, a filtered Scan on
// DynamoDB, a query on Firestore; never the whole store in memory). A page ends at a
// position (the last entry's key); passing it as the next request's `after` resumes
// behind it. The order is the provider's, stable but not the same on every provider
// (key order on the relational and memory stores, document id order on Firestore, scan
// order on DynamoDB); over a store that does not change between pages, the pages hold
// every match exactly once. A page may hold fewer than `limit` entries and still be
// followed by more; `next` is nullopt only when none is left. list() ignores the
// ambient TenantScope: its tenant is the request's.
//
// Thread-safety: safe to call from many threads.
#ifndef DOCKET_INBOX_CHECKPOINT_STORE_H_
#define DOCKET_INBOX_CHECKPOINT_STORE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/tenant.h"

namespace docket {

// Most checkpoints one list() page holds.
inline constexpr std::size_t kMaxCheckpointPageSize = 10'000;

// One stored checkpoint.
struct CheckpointEntry {
  // The tenant it is kept under: "__untenanted__" (TenantId::untenanted()) for one set
  // outside any TenantScope, such as a whole-feed consumer's.
  TenantId tenant;
  std::string consumer_id;
  std::string position;
  Timestamp updated_at{};  // when it was last set, by the store's clock

  friend bool operator==(const CheckpointEntry&, const CheckpointEntry&) = default;
};

// Where a page of a listing ended: the last entry's key.
struct CheckpointListPosition {
  TenantId tenant;
  std::string consumer_id;

  friend bool operator==(const CheckpointListPosition&, const CheckpointListPosition&) = default;
};

// One page of a listing; every filter set narrows it.
struct CheckpointListRequest {
  std::optional<std::string> consumer_id{};       // nullopt: every consumer
  std::optional<TenantId> tenant{};               // nullopt: every tenant
  std::optional<CheckpointListPosition> after{};  // the previous page's `next`
  std::size_t limit = 100;                        // 1..kMaxCheckpointPageSize
};

struct CheckpointPage {
  std::vector<CheckpointEntry> entries{};
  std::optional<CheckpointListPosition> next{};  // pass as `after`; nullopt: none is left
};

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;

  // The stored position, or nullopt the first time. Throws InvalidInputError for a
  // blank or invalid consumer id.
  std::optional<std::string> get(std::string_view consumer_id);

  // Upserts the position. Throws InvalidInputError for a blank or invalid consumer
  // id, or a blank or non-UTF-8 position; nothing is written then.
  void set(std::string_view consumer_id, std::string_view position);

  // One page of checkpoints (see "Listing" above). Throws InvalidInputError, before
  // anything is read, for a limit outside [1, kMaxCheckpointPageSize], an invalid
  // consumer id, or an `after` of another tenant or consumer than the request names.
  CheckpointPage list(const CheckpointListRequest& request);

 protected:
  CheckpointStore() = default;

  virtual std::optional<std::string> do_get(const std::string& tenant,
                                            std::string_view consumer_id) = 0;
  virtual void do_set(const std::string& tenant, std::string_view consumer_id,
                      std::string_view position) = 0;
  // `request` is validated. Returns at most request.limit + 1 entries matching every
  // filter, in the provider's stable order, starting behind request.after: the one
  // past the limit tells list() that a next page exists.
  virtual std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) = 0;
};

}  // namespace docket

#endif  // DOCKET_INBOX_CHECKPOINT_STORE_H_
