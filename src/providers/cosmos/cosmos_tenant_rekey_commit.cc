// The Cosmos DB re-key target's writes (cosmos_tenant_rekey.h): a saga's move as one
// transactional batch in its type's partition, a stream's as a batch of Creates in its
// new partition and then a batch of Deletes in its legacy one, and the read of a new
// key.
#include <span>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_batch.h"
#include "providers/cosmos/cosmos_tenant_rekey.h"

namespace docket::cosmos::detail {
namespace {

// Every record of one write shares `partition_of(record)`: the procedure hands a target
// one stream's events, or one saga, at a time. Anything else is a bug, never sent.
template <typename PartitionOf>
std::string one_partition(std::span<const kit::RekeyMove* const> moves,
                          std::span<const kit::RekeyMove* const> deletes,
                          PartitionOf partition_of) {
  const kit::RekeyMove* first = moves.empty() ? deletes.front() : moves.front();
  const std::string partition = partition_of(*first);
  for (const auto& group : {moves, deletes}) {
    for (const kit::RekeyMove* move : group) {
      if (partition_of(*move) != partition) {
        throw InfrastructureError(
            "the tenant re-key of Cosmos DB was asked to write records of several partitions "
            "in one write, which docket never does; nothing was written");
      }
    }
  }
  return partition;
}

// The Delete of a legacy item, under the etag it was read with: a record changed (or
// gone) since it was exported is not deleted.
nlohmann::json unchanged_delete(const kit::LegacyRecord& record, const std::string& partition) {
  return {{"operationType", "Delete"},
          {"id", record.document.at("id")},
          {"partitionKey", partition_key_header(partition)},
          {"ifMatch", record.revision}};
}

nlohmann::json create(const kit::RekeyMove& move, const std::string& partition) {
  return {{"operationType", "Create"},
          {"id", move.new_document.at("id")},
          {"partitionKey", partition_key_header(partition)},
          {"resourceBody", move.new_document}};
}

std::string legacy_stream(const kit::RekeyMove& move) {
  return move.record->stream;
}

std::string new_stream(const kit::RekeyMove& move) {
  return move.new_key;
}

std::string saga_partition(const kit::RekeyMove& move) {
  return move.record->sort_key;
}

}  // namespace

bool CosmosRekeyTarget::send(kit::RekeyKind kind, const std::string& partition,
                             const nlohmann::json& operations, std::string_view what) const {
  const std::string store = "the tenant re-key of " + where(kind);
  const std::optional<BatchFailure> failure = send_batch(client_, {.container = container(kind),
                                                                   .partition = partition,
                                                                   .operations = operations,
                                                                   .what = what,
                                                                   .store = store});
  if (!failure) {
    return true;
  }
  // A new id taken (409), a legacy item changed (412) or gone (404): a condition.
  if (failure->status == 409 || failure->status == 412 || failure->status == 404) {
    return false;
  }
  throw InfrastructureError(store + ": the " + std::string(what) + " failed at its operation " +
                            std::to_string(failure->index) + " (HTTP " +
                            std::to_string(failure->status) +
                            (failure->message.empty() ? "" : ": " + failure->message) +
                            "); nothing of that batch was written. Run the re-key again");
}

bool CosmosRekeyTarget::create_new(std::span<const kit::RekeyMove* const> moves) const {
  if (moves.empty()) {
    return true;
  }
  const std::string partition = one_partition(moves, {}, new_stream);
  nlohmann::json operations = nlohmann::json::array();
  for (const kit::RekeyMove* move : moves) {
    operations.push_back(create(*move, partition));
  }
  return send(kit::RekeyKind::kEvent, partition, operations,
              "batch creating " + std::to_string(moves.size()) + " re-keyed events of stream '" +
                  partition.substr(0, 200) + "'");
}

bool CosmosRekeyTarget::delete_old(std::span<const kit::RekeyMove* const> moves,
                                   std::span<const kit::RekeyMove* const> deletes) const {
  if (moves.empty() && deletes.empty()) {
    return true;
  }
  const std::string partition = one_partition(moves, deletes, legacy_stream);
  nlohmann::json operations = nlohmann::json::array();
  for (const auto& group : {moves, deletes}) {
    for (const kit::RekeyMove* move : group) {
      operations.push_back(unchanged_delete(*move->record, partition));
    }
  }
  return send(kit::RekeyKind::kEvent, partition, operations,
              "batch deleting " + std::to_string(operations.size()) + " legacy events of stream '" +
                  partition.substr(0, 200) + "'");
}

bool CosmosRekeyTarget::commit_saga(std::span<const kit::RekeyMove* const> moves,
                                    std::span<const kit::RekeyMove* const> deletes) const {
  const std::string partition = one_partition(moves, deletes, saga_partition);
  nlohmann::json operations = nlohmann::json::array();
  for (const kit::RekeyMove* move : moves) {
    operations.push_back(create(*move, partition));
    operations.push_back(unchanged_delete(*move->record, partition));
  }
  for (const kit::RekeyMove* move : deletes) {
    operations.push_back(unchanged_delete(*move->record, partition));
  }
  return send(kit::RekeyKind::kSaga, partition, operations,
              "batch re-keying " + std::to_string(moves.size() + deletes.size()) +
                  " legacy sagas of type '" + partition.substr(0, 200) + "'");
}

bool CosmosRekeyTarget::commit(std::span<const kit::RekeyMove* const> moves,
                               std::span<const kit::RekeyMove* const> deletes) const {
  if (moves.empty() && deletes.empty()) {
    return true;
  }
  const kit::RekeyKind kind = (moves.empty() ? deletes : moves).front()->record->kind;
  if (kind == kit::RekeyKind::kSaga) {
    return commit_saga(moves, deletes);
  }
  // Two partitions, two batches: the creates first, so that a run stopped between them
  // leaves every record at least once (the legacy item in place, under the marker).
  return create_new(moves) && delete_old(moves, deletes);
}

std::optional<nlohmann::json> CosmosRekeyTarget::read_new(const kit::RekeyMove& move) const {
  const kit::RekeyKind kind = move.record->kind;
  const std::string id = move.new_document.at("id").get<std::string>();
  const std::string partition =
      kind == kit::RekeyKind::kEvent ? move.new_key : move.record->sort_key;
  std::optional<ReadItem> item =
      read_item(client_, {.container = container(kind), .id = id, .partition_key = partition});
  if (!item) {
    return std::nullopt;
  }
  return written_content(std::move(item->body));
}

}  // namespace docket::cosmos::detail
