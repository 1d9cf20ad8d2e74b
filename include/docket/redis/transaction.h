// A handler's view of the Redis unit of work: writes to the application's own keys,
// queued, and sent at commit together with the inbox's dedup record in ONE script run
// (EVALSHA), so that the handler's writes and the record that the message was processed
// are applied together or not at all.
//
//   handlers.on<Order>("order", [](const Order& o, docket::redis::Transaction& tx,
//                                  docket::HandlerContext&) {
//     tx.insert("order:" + o.id, o.json);          // refused at commit if the key exists
//     tx.hset("stock:" + o.sku, "reserved", std::to_string(o.qty));
//     tx.rpush("order-log", o.id);
//   });
//
// Keys are used as given (the store URL's prefix applies to docket's own keys only).
//
// Invariants:
//  - nothing is sent before the unit of work commits, so a handler cannot read its own
//    writes (a script cannot stop midway to run C++); a handler that throws leaves no
//    write behind;
//  - the script first checks everything that could refuse a write (the dedup record
//    absent, each insert's key absent, each key of the right type for its command, as
//    the queued commands before it leave it) and writes only when every check holds,
//    so a commit is applied whole or not at all: an insert whose key exists is a
//    UniqueViolationError naming the key, a key of another type (a WRONGTYPE) an
//    InvalidInputError naming the key, its type and the command; nothing is written;
//  - a value or a key is at most 512 MB (Redis's limit): a larger one is refused with
//    InvalidInputError when it is queued, before anything is sent.
//
// Thread-safety: belongs to the dispatching thread, valid during the handler call.
#ifndef DOCKET_REDIS_TRANSACTION_H_
#define DOCKET_REDIS_TRANSACTION_H_

#include <string_view>

#include "docket/core/handler_transaction.h"

namespace docket::redis {

// The provider's side of a Transaction, opaque here: docket's Redis unit of work
// derives from it (src/providers/redis/redis_unit.h), so no application can reach it.
class TransactionAccess;

class Transaction : public HandlerTransaction {
 public:
  static constexpr std::string_view kTypeName = "docket::redis::Transaction";

  std::string_view type_name() const noexcept override { return kTypeName; }

  // SET key value: replaces whatever the key holds.
  void set(std::string_view key, std::string_view value);
  // SET key value where no key exists: at commit, UniqueViolationError naming the key
  // when one does (an earlier write of this unit to the key counts).
  void insert(std::string_view key, std::string_view value);
  // DEL key (nothing to delete is no error).
  void remove(std::string_view key);
  // HSET key field value, on a hash or no key.
  void hset(std::string_view key, std::string_view field, std::string_view value);
  // SADD key member, on a set or no key.
  void sadd(std::string_view key, std::string_view member);
  // RPUSH key value, on a list or no key.
  void rpush(std::string_view key, std::string_view value);

 private:
  friend class TransactionAccess;

  explicit Transaction(TransactionAccess& unit) noexcept : unit_(&unit) {}

  TransactionAccess* unit_;
};

}  // namespace docket::redis

#endif  // DOCKET_REDIS_TRANSACTION_H_
