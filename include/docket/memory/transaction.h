// A handler's view of the memory provider's unit of work: named in-memory tables of
// rows under a unique key, with the same transactional behaviour as a database.
// Writes are staged in the unit of work and applied atomically at commit, so a
// handler throw leaves no effect; a key already present (committed, or staged in this
// unit of work) throws UniqueViolationError at insert, and a key another unit of work
// committed meanwhile throws it at commit. The memory event, saga and outbox stores
// opened on the same docket::memory::Database (docket/memory/database.h) stage through
// it too, and commit with it.
//
//   handlers.on<Order>("order", [](const Order& order, docket::memory::Transaction& tx,
//                                  docket::HandlerContext&) {
//     tx.insert("orders", {order.id}, {"42"});
//   });
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_MEMORY_TRANSACTION_H_
#define DOCKET_MEMORY_TRANSACTION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/handler_transaction.h"

namespace docket::memory {

// How docket's own memory code makes a Transaction and reaches the unit of work under
// one (src/providers/memory/memory_transaction_access.h).
class TransactionAccess;

// A composite key or a row's values, term by term.
using Terms = std::vector<std::string>;

class Transaction : public HandlerTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::memory::Transaction";

  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  std::string_view type_name() const noexcept override { return kTypeName; }

  // Stages a new row. Throws UniqueViolationError naming the table when the key is
  // visible to this unit of work.
  void insert(std::string_view table, Terms key, Terms values = {});

  // The row under `key` as this unit of work sees it, or nullopt.
  std::optional<Terms> find(std::string_view table, const Terms& key) const;

  // Rows in `table` as this unit of work sees them.
  std::size_t count(std::string_view table) const;

 private:
  friend class TransactionAccess;

  // What the transaction runs on (a unit of work), defined by docket's own code
  // (TransactionAccess), which alone makes a Transaction.
  struct Handle;

  explicit Transaction(Handle& handle) noexcept : handle_(&handle) {}

  Handle* handle_;
};

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_TRANSACTION_H_
