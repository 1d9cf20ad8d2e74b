// The unit of work of a store without interactive transactions: the writes a unit
// stages, kept in memory until commit flushes them as ONE atomic request (a memory
// database's commit, DynamoDB TransactWriteItems, a Firestore commit, a Cosmos DB
// batch) that carries their conditions (a dedup entry must not exist, a stream must
// still be at the version the unit saw).
//
// Savepoints are marks in the staged lists: rolling back to one drops what was staged
// after it, so dispatch_batch's per-message savepoints cost nothing until commit.
//
// The store's limit on one atomic request is enforced as writes are staged: a write
// that would take the set past max_writes_per_commit or max_bytes_per_commit is
// refused with a CommitLimitError (a ConfigurationError) naming the store, the limit
// and the alternative, before anything is written (nothing is flushed before commit), so a batch
// over the limit never commits in part.
//
// Thread-safety: belongs to the one thread running the unit of work.
#ifndef DOCKET_PROVIDERS_KIT_WRITE_SET_H_
#define DOCKET_PROVIDERS_KIT_WRITE_SET_H_

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/store_capabilities.h"
#include "docket/inbox/inbox_errors.h"

namespace docket::kit {

// Names the store in refusals ("the Firestore inbox") and holds its limits.
struct CommitLimits {
  std::string store_name;
  std::size_t max_writes = 0;  // 0: none
  std::size_t max_bytes = 0;   // 0: none

  static CommitLimits of(std::string store_name, const StoreCapabilities& capabilities) {
    return {std::move(store_name), capabilities.max_writes_per_commit,
            capabilities.max_bytes_per_commit};
  }
};

// Writes of the kinds `Kinds...`, each kind in its own list in the order staged.
template <class... Kinds>
class WriteSet {
 public:
  explicit WriteSet(CommitLimits limits = {}) : limits_(std::move(limits)) {}

  // Stages `write`, which the request will carry as `writes` writes of `bytes` bytes
  // (an append of three events to DynamoDB is three items). Throws CommitLimitError,
  // staging nothing, when the set would exceed the store's limits.
  template <class Kind>
  void add(Kind write, std::size_t writes = 1, std::size_t bytes = 0) {
    if (limits_.max_writes != 0 && writes_ + writes > limits_.max_writes) {
      refuse(limits_.store_name + " cannot join more than " + std::to_string(limits_.max_writes) +
             " writes in one commit (this one would hold " + std::to_string(writes_ + writes) +
             "): dispatch smaller batches or use the claim inbox");
    }
    if (limits_.max_bytes != 0 && bytes_ + bytes > limits_.max_bytes) {
      refuse(limits_.store_name + " cannot join more than " + std::to_string(limits_.max_bytes) +
             " bytes in one commit (this one would hold " + std::to_string(bytes_ + bytes) +
             "): dispatch smaller batches, keep documents smaller, or use the claim inbox");
    }
    list<Kind>().push_back(std::move(write));
    writes_ += writes;
    bytes_ += bytes;
  }

  template <class Kind>
  std::vector<Kind>& list() noexcept {
    return std::get<std::vector<Kind>>(lists_);
  }
  template <class Kind>
  const std::vector<Kind>& list() const noexcept {
    return std::get<std::vector<Kind>>(lists_);
  }

  // Writes and bytes staged, as add() counted them.
  std::size_t writes() const noexcept { return writes_; }
  std::size_t bytes() const noexcept { return bytes_; }
  bool empty() const noexcept { return writes_ == 0; }

  // One savepoint per nesting level: begin, then release (keep what was staged since)
  // or roll back (drop it). Throws InfrastructureError when no savepoint is open.
  void begin_savepoint() { marks_.push_back(Mark{sizes(), writes_, bytes_}); }
  void release_savepoint() {
    require_savepoint("release");
    marks_.pop_back();
  }
  void rollback_savepoint() {
    require_savepoint("roll back to");
    const Mark& mark = marks_.back();
    truncate(mark.sizes, std::index_sequence_for<Kinds...>{});
    writes_ = mark.writes;
    bytes_ = mark.bytes;
    marks_.pop_back();
  }

 private:
  // The wording of refuse_capability (docket/core/store_capabilities.h), as the type the
  // dispatcher tells apart from other configuration errors.
  [[noreturn]] static void refuse(const std::string& message) { throw CommitLimitError(message); }

  using Sizes = std::array<std::size_t, sizeof...(Kinds)>;
  struct Mark {
    Sizes sizes;
    std::size_t writes;
    std::size_t bytes;
  };

  Sizes sizes() const noexcept { return {std::get<std::vector<Kinds>>(lists_).size()...}; }

  // erase, not resize: a staged write need not be default-constructible.
  template <std::size_t... I>
  void truncate(const Sizes& sizes, std::index_sequence<I...>) {
    ((std::get<I>(lists_).erase(std::get<I>(lists_).begin() + static_cast<std::ptrdiff_t>(sizes[I]),
                                std::get<I>(lists_).end())),
     ...);
  }

  void require_savepoint(const char* operation) const {
    if (marks_.empty()) {
      throw InfrastructureError(limits_.store_name + " unit of work: cannot " + operation +
                                " a savepoint: none is open");
    }
  }

  CommitLimits limits_;
  std::tuple<std::vector<Kinds>...> lists_;
  std::vector<Mark> marks_;
  std::size_t writes_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_WRITE_SET_H_
