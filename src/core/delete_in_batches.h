// The loop behind every purge and cleanup: delete in batches, each its own short
// transaction so that live traffic interleaves with it, until a batch deletes fewer
// than it was allowed to (nothing more is due).
//
// Internal to docket. Thread-safety: as `delete_batch`'s.
#ifndef DOCKET_SRC_CORE_DELETE_IN_BATCHES_H_
#define DOCKET_SRC_CORE_DELETE_IN_BATCHES_H_

#include <cstddef>
#include <cstdint>
#include <functional>

namespace docket::core {

// Calls `delete_batch()`, which deletes at most `batch_size` (> 0, checked by the
// caller) rows in one transaction and returns how many it deleted, until a call
// deletes fewer than `batch_size`; after each call `progress(total so far)` when set.
// Returns the total deleted.
template <class DeleteBatch>
std::uint64_t delete_in_batches(std::size_t batch_size, DeleteBatch delete_batch,
                                const std::function<void(std::uint64_t)>& progress = {}) {
  std::uint64_t total = 0;
  for (;;) {
    const std::size_t deleted = delete_batch();
    total += deleted;
    if (progress) {
      progress(total);
    }
    if (deleted < batch_size) {
      return total;
    }
  }
}

}  // namespace docket::core

#endif  // DOCKET_SRC_CORE_DELETE_IN_BATCHES_H_
