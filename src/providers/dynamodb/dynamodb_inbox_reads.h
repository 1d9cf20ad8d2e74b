// The inbox table's reads and the retention purge (dynamodb_inbox_table.h), shared by the
// inbox store and its units of work:
//   exists       one consistent GetItem of the dedup item's id
//   recorded     consistent BatchGetItem of the ids asked for (kit/recorded_ids.h), 100
//                keys a request, the keys DynamoDB left unprocessed asked again; those
//                a unit of work staged are not read
//   unprocessed  the ids recorded() answers false for
//   purge_batch  a Query of shard_processed per shard (processed_at < cutoff) for at most
//                `limit` candidates, each deleted by a DeleteItem conditional on
//                processed_at < cutoff on the item itself (the index is eventually
//                consistent); an item already gone is not counted
//   purge_consumer_batch  a Scan of the table filtered by consumer id (and tenant) for at
//                most `limit` candidates (the table has no index by consumer: a rebuild
//                is rare and reads the table once a batch), each deleted by a DeleteItem
//                conditional on the item existing; an item already gone is not counted
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_READS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_READS_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_once.h"

namespace docket::dynamodb::detail::inbox {

class Reads {
 public:
  // `client` must outlive the reads.
  Reads(const Client& client, TableSchema schema);

  // Makes sure of the table (once).
  void ensure() { table_.ensure(client_); }
  const TableSchema& schema() const noexcept { return table_.schema(); }
  const std::string& store() const noexcept { return store_; }

  // Whether the item under `key` (inbox::dedup_key) is committed.
  bool exists(const nlohmann::json& key) const;

  // For each of `message_ids`, in order, whether (tenant, consumer_id) has its item:
  // committed, or, with `staged`, staged (staged(key) true for its inbox::dedup_key),
  // which is answered without reading. One consistent BatchGetItem per 100 distinct
  // ids read.
  std::vector<bool> recorded(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids,
      const std::function<bool(const nlohmann::json& key)>& staged = {}) const;

  // The ids of `message_ids` with no item for (tenant, consumer_id), in input order.
  std::vector<std::string> unprocessed(const std::string& tenant, std::string_view consumer_id,
                                       std::span<const std::string> message_ids) const;

  // Deletes at most `limit` items processed before `cutoff`; returns how many.
  std::size_t purge_batch(Timestamp cutoff, std::size_t limit) const;

  // Deletes at most `limit` items of `consumer_id` (of `*tenant`, every tenant's when
  // null); returns how many.
  std::size_t purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                   std::size_t limit) const;

 private:
  // For each of `ids` (distinct dedup ids, at most 100), whether its item is committed.
  std::vector<bool> found(std::span<const std::string> ids) const;
  // The purges' two steps: the ids of the items a pager finds, then their deletion, each
  // item where `condition` still holds (Replay::kUnsafe: a lost answer is not resent).
  void collect_ids(Pager& pager, std::size_t limit, std::vector<std::string>& ids) const;
  std::size_t delete_where(const std::vector<std::string>& ids, std::string_view condition,
                           const nlohmann::json& values) const;

  const Client& client_;
  TableOnce table_;
  std::string store_;  // "DynamoDB inbox (table '...' at ...)", for errors
};

}  // namespace docket::dynamodb::detail::inbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_READS_H_
