// The committed state of a memory store: named tables of rows under unique keys,
// guarded by one reader/writer lock. Units of work stage writes and apply them here
// atomically at commit.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "docket/memory/transaction.h"

namespace docket::memory::detail {

using Table = std::map<Terms, Terms>;

struct StagedInsert {
  std::string table;
  Terms key;
  Terms values;
};

class Database {
 public:
  std::optional<Terms> find(std::string_view table, const Terms& key) const;
  std::size_t count(std::string_view table) const;

  // Applies every insert or none: throws UniqueViolationError naming the first key
  // that is already committed.
  void commit(const std::vector<StagedInsert>& inserts);

  // Runs `reader` on the committed tables under the shared lock.
  void read(
      const std::function<void(const std::map<std::string, Table, std::less<>>&)>& reader) const;

  // Runs `writer` on the committed tables under the exclusive lock: a transaction of
  // its own (checkpoint upserts, retention batches).
  void write(const std::function<void(std::map<std::string, Table, std::less<>>&)>& writer);

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, Table, std::less<>> tables_;
};

// "memory table 'name': a row with key ('a', 'b') already exists" plus advice.
[[noreturn]] void throw_unique_violation(std::string_view table, const Terms& key,
                                         std::string_view when);

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_DATABASE_H_
