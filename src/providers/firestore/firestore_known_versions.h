// The versions of streams a Firestore event store has seen exist: the last event of each
// append it committed and of each load it returned. Events are never changed or deleted,
// so an event seen once exists for good, and an append expecting a version at or below
// the one known here need not read the stream's event at that version before its commit
// (the commit's exists: false writes after it still refuse a stale expectation).
//
// At most kCapacity streams are known; past that, a stream learned evicts another, whose
// next append reads first.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_KNOWN_VERSIONS_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_KNOWN_VERSIONS_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace docket::firestore::detail {

class KnownVersions {
 public:
  static constexpr std::size_t kCapacity = 4096;

  // Records that `stream`'s event at `version` exists.
  void saw(const std::string& stream, std::int64_t version);
  // Whether `stream`'s event at `version` is known to exist.
  bool exists(const std::string& stream, std::int64_t version);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::int64_t> highest_;  // guarded by mutex_
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_KNOWN_VERSIONS_H_
