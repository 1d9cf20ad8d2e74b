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
// Thread-safety: safe to call from many threads.
#ifndef DOCKET_INBOX_CHECKPOINT_STORE_H_
#define DOCKET_INBOX_CHECKPOINT_STORE_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket {

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;

  // The stored position, or nullopt the first time. Throws InvalidInputError for a
  // blank or invalid consumer id.
  std::optional<std::string> get(std::string_view consumer_id);

  // Upserts the position. Throws InvalidInputError for a blank or invalid consumer
  // id, or a blank or non-UTF-8 position; nothing is written then.
  void set(std::string_view consumer_id, std::string_view position);

 protected:
  CheckpointStore() = default;

  virtual std::optional<std::string> do_get(const std::string& tenant,
                                            std::string_view consumer_id) = 0;
  virtual void do_set(const std::string& tenant, std::string_view consumer_id,
                      std::string_view position) = 0;
};

}  // namespace docket

#endif  // DOCKET_INBOX_CHECKPOINT_STORE_H_
