// docket::redis::Transaction (docket/redis/transaction.h): each write queued on the unit.
#include "docket/redis/transaction.h"
#include "providers/redis/redis_transaction_access.h"

namespace docket::redis {

void Transaction::set(std::string_view key, std::string_view value) {
  unit_->queue(QueuedOp::kSet, key, {}, value);
}
void Transaction::insert(std::string_view key, std::string_view value) {
  unit_->queue(QueuedOp::kInsert, key, {}, value);
}
void Transaction::remove(std::string_view key) {
  unit_->queue(QueuedOp::kRemove, key, {}, {});
}
void Transaction::hset(std::string_view key, std::string_view field, std::string_view value) {
  unit_->queue(QueuedOp::kHset, key, field, value);
}
void Transaction::sadd(std::string_view key, std::string_view member) {
  unit_->queue(QueuedOp::kSadd, key, {}, member);
}
void Transaction::rpush(std::string_view key, std::string_view value) {
  unit_->queue(QueuedOp::kRpush, key, {}, value);
}

}  // namespace docket::redis
