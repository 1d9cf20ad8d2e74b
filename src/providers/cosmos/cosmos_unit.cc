#include "providers/cosmos/cosmos_unit.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/inbox/inbox_schema.h"
#include "providers/cosmos/cosmos_batch.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/kit/commit_sequences.h"

namespace docket::cosmos::detail {
namespace {

constexpr std::size_t kMaxUnitIdBytes = 1023;

// Why `id` is no item id the service takes, or "" when it is one.
std::string unit_id_problem(std::string_view id) {
  if (id.empty()) {
    return "is empty";
  }
  if (id.size() > kMaxUnitIdBytes) {
    return "is " + std::to_string(id.size()) + " bytes, over Cosmos DB's limit of 1023";
  }
  if (id.find_first_of("/\\?#") != std::string_view::npos) {
    return "holds '/', '\\', '?' or '#', which Cosmos DB refuses in an id";
  }
  return "";
}

// The batch's name of the operation a verb of this unit stages.
std::string_view batch_operation_type(std::string_view verb) {
  if (verb == "create") {
    return "Create";
  }
  if (verb == "upsert") {
    return "Upsert";
  }
  return verb == "replace" ? "Replace" : "Delete";
}

std::string item_quoted(std::string_view id) {
  return "'" + std::string(id.substr(0, 200)) + "'";
}

}  // namespace

Unit::Unit(const UnitContext& context)
    : context_(context),
      staging_(context.store, kit::CommitLimits{.store_name = context.store,
                                                .max_writes = kMaxBatchOperations,
                                                .max_bytes = kMaxBatchBytes}),
      tx_(TransactionAccess::transaction_on(*this)) {}

std::string Unit::partition() const {
  return partition_ ? *partition_ : TenantScope::current_or_untenanted().value();
}

const std::string& Unit::pin(const std::string& wanted, bool refuse_other) {
  if (!partition_ || staging_.writes().empty()) {
    partition_ = wanted;
  } else if (*partition_ != wanted && refuse_other) {
    throw CommitLimitError(context_.store + " cannot join a message of tenant '" + wanted +
                           "' to a unit of work holding tenant '" + *partition_ +
                           "': one transactional batch holds one partition (the tenant's); "
                           "dispatch each tenant's messages in batches of their own");
  }
  return *partition_;
}

bool Unit::holds(std::string_view partition, std::string_view id) const {
  if (!partition_ || *partition_ != partition) {
    return false;
  }
  const std::vector<StagedOperation>& staged = staging_.writes().list<StagedOperation>();
  return std::any_of(staged.begin(), staged.end(),
                     [&](const StagedOperation& op) { return op.id == id; });
}

void Unit::stage(std::string_view type, std::string_view id, std::optional<nlohmann::json> item,
                 const std::optional<std::string>& etag, Role role,
                 std::optional<SequencedItem> sequenced) {
  std::string what = std::string(type) + " of item " + item_quoted(id) + " in container '" +
                     context_.container + "'";
  staging_.require_open(what);
  if (const std::string problem = unit_id_problem(id); !problem.empty()) {
    throw InvalidInputError(context_.store + ": the " + what + " is refused: its id " + problem +
                            "; nothing was staged");
  }
  const std::string& pk = partition_ ? *partition_ : pin(partition(), false);
  if (item) {
    if (!item->is_object()) {
      throw InvalidInputError(context_.store + ": the " + what +
                              " is refused: an item is a JSON object; nothing was staged");
    }
    const auto named = item->find("id");
    if (named != item->end() && *named != id) {
      throw InvalidInputError(context_.store + ": the " + what +
                              " is refused: the item names another id; nothing was staged");
    }
    const auto in = item->find(kPartitionProperty);
    if (in != item->end() && *in != pk) {
      throw InvalidInputError(context_.store + ": the " + what + " is refused: its \"" +
                              std::string(kPartitionProperty) +
                              "\" is not this unit's partition '" + pk +
                              "'; a unit of work writes one partition (use the claim inbox for "
                              "handlers that write elsewhere); nothing was staged");
    }
    (*item)["id"] = id;
    (*item)[kPartitionProperty] = pk;
    check_item_size(*item, context_.store);
  }
  if (holds(pk, id)) {
    if (type == "create") {
      throw UniqueViolationError(context_.container, context_.store + ": the " + what +
                                                         " is refused: this unit of work "
                                                         "writes the item already");
    }
    throw InvalidInputError(context_.store + ": the " + what +
                            " is refused: this unit of work writes the item already; write "
                            "each item once per unit");
  }
  nlohmann::json operation = {{"operationType", batch_operation_type(type)},
                              {"id", id},
                              {"partitionKey", partition_key_header(pk)}};
  if (item) {
    operation["resourceBody"] = std::move(*item);
  }
  if (etag) {
    operation["ifMatch"] = *etag;
  }
  const std::size_t bytes = operation.dump().size();
  staging_.writes().add(StagedOperation{.operation = std::move(operation),
                                        .id = std::string(id),
                                        .role = role,
                                        .what = std::move(what),
                                        .sequenced = std::move(sequenced)},
                        1, bytes);
}

void Unit::create(std::string_view id, nlohmann::json item) {
  stage("create", id, std::move(item), std::nullopt, Role::kCreate);
}

void Unit::create_sequenced(std::string_view id, nlohmann::json item, SequencedItem sequenced) {
  const std::vector<StagedOperation>& staged = staging_.writes().list<StagedOperation>();
  const std::string key_item = sequenced.key_item;
  if (key_item.empty() || std::any_of(staged.begin(), staged.end(), [&](const StagedOperation& op) {
        return op.role == Role::kKeyItem && op.id == key_item;
      })) {
    stage("create", id, std::move(item), std::nullopt, Role::kCreate, std::move(sequenced));
    return;
  }
  // The key's first item and its key item are staged together or not at all.
  staging_.begin_savepoint();
  try {
    stage("create", id, std::move(item), std::nullopt, Role::kCreate, std::move(sequenced));
    stage_key_item(key_item);
  } catch (...) {
    staging_.rollback_savepoint();
    throw;
  }
  staging_.release_savepoint();
}

void Unit::stage_key_item(const std::string& id) {
  // Staged after an item, so the unit's partition is pinned.
  staging_.writes().add(StagedOperation{.operation = nlohmann::json::object(),
                                        .id = id,
                                        .role = Role::kKeyItem,
                                        .what = "write of outbox key item " + item_quoted(id) +
                                                " in container '" + context_.container + "'"},
                        1, outbox::key_item_operation_bytes(id, *partition_));
}

void Unit::upsert(std::string_view id, nlohmann::json item) {
  stage("upsert", id, std::move(item), std::nullopt, Role::kWrite);
}

void Unit::replace(std::string_view id, nlohmann::json item,
                   const std::optional<std::string>& etag) {
  stage("replace", id, std::move(item), etag, Role::kWrite);
}

void Unit::remove(std::string_view id, const std::optional<std::string>& etag) {
  stage("delete", id, std::nullopt, etag, Role::kWrite);
}

std::optional<ItemRead> Unit::read(std::string_view id) const {
  const std::string pk = partition();
  std::optional<ReadItem> read =
      read_item(context_.client, {.container = context_.container, .id = id, .partition_key = pk});
  if (!read) {
    return std::nullopt;
  }
  return ItemRead{
      .id = std::string(id), .item = std::move(read->body), .etag = std::move(read->etag)};
}

void Unit::stage_dedup(const std::string& tenant, std::string_view id, nlohmann::json item) {
  staging_.require_open("record a message");
  pin(tenant, true);
  stage("create", id, std::move(item), std::nullopt, Role::kDedup);
}

void Unit::commit() {
  staging_.end();
  const std::vector<StagedOperation>& staged = staging_.writes().list<StagedOperation>();
  if (staged.empty()) {
    return;
  }
  const std::string what = "transactional batch of " + std::to_string(staged.size()) +
                           " operations in container '" + context_.container + "'";
  for (int attempt = 1; attempt <= kMaxCommitAttempts; ++attempt) {
    // Read before the draw: a unit of the same key that committed before the read drew
    // before it too, so this unit's numbers follow its; one that commits after the read
    // changes a key item this batch writes under the etag read, and fails it.
    const std::vector<std::optional<outbox::KeyItemRead>> reads = read_key_items();
    step(CommitStep::kKeysRead);
    const nlohmann::json operations = numbered_operations(reads);
    step(CommitStep::kDrawn);
    // A unit of one create (a producer's unkeyed message) goes as a point create.
    const std::optional<BatchFailure> failure =
        send_batch_or_point_create(context_.client, {.container = context_.container,
                                                     .partition = *partition_,
                                                     .operations = operations,
                                                     .what = what,
                                                     .store = context_.store});
    if (!failure) {
      return;
    }
    const StagedOperation& failed = staged.at(failure->index);
    if (failed.role != Role::kKeyItem ||
        (failure->status != 412 && failure->status != 409 && failure->status != 404)) {
      forget_created_key_items(reads);
      throw_failed(*failure);
    }
    // A unit of that key committed since the read, or a removal deleted the key item:
    // nothing was applied; again.
    if (attempt == kMaxCommitAttempts) {
      forget_created_key_items(reads);
    }
  }
  throw InfrastructureError(context_.store + ": the " + what + " was overtaken " +
                            std::to_string(kMaxCommitAttempts) +
                            " times in a row by units of work of the same ordering keys "
                            "committing first; nothing of the unit of work was written; retry "
                            "it later, or spread its messages over more ordering keys");
}

std::vector<std::optional<outbox::KeyItemRead>> Unit::read_key_items() const {
  const std::vector<StagedOperation>& staged = staging_.writes().list<StagedOperation>();
  std::vector<std::optional<outbox::KeyItemRead>> reads(staged.size());
  const outbox::KeyItemPlace place{.client = context_.client,
                                   .container = context_.container,
                                   .partition = *partition_,
                                   .store = context_.store};
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (staged[i].role == Role::kKeyItem) {
      reads[i] = outbox::read_or_create_key_item(place, staged[i].id);
    }
  }
  return reads;
}

void Unit::forget_created_key_items(
    const std::vector<std::optional<outbox::KeyItemRead>>& reads) const {
  const outbox::KeyItemPlace place{.client = context_.client,
                                   .container = context_.container,
                                   .partition = *partition_,
                                   .store = context_.store};
  for (const std::optional<outbox::KeyItemRead>& read : reads) {
    if (read) {
      outbox::forget_created(place, *read);
    }
  }
}

nlohmann::json Unit::numbered_operations(
    const std::vector<std::optional<outbox::KeyItemRead>>& reads) {
  std::vector<StagedOperation>& staged = staging_.writes().list<StagedOperation>();
  std::vector<std::int64_t> sequences(staged.size(), 0);
  kit::number_at_commit<SequenceCounter>(
      staged.size(),
      [&](std::size_t i) { return staged[i].sequenced ? &staged[i].sequenced->counter : nullptr; },
      [&](const SequenceCounter& counter, std::int64_t count) {
        return draw_sequences(context_.client, counter, count, context_.store);
      },
      [&](std::size_t i, std::int64_t sequence) {
        staged[i].sequenced->number(staged[i].operation["resourceBody"], sequence);
        sequences[i] = sequence;
      });
  for (std::size_t k = 0; k < staged.size(); ++k) {
    if (staged[k].role != Role::kKeyItem) {
      continue;
    }
    std::int64_t first = 0;
    std::int64_t last = 0;
    for (std::size_t i = 0; i < staged.size(); ++i) {
      if (staged[i].sequenced && staged[i].sequenced->key_item == staged[k].id) {
        first = first == 0 ? sequences[i] : std::min(first, sequences[i]);
        last = std::max(last, sequences[i]);
      }
    }
    // Staged with its key's first item and rolled back with it, a key item has one.
    if (last == 0) {
      throw InfrastructureError(context_.store + ": the " + staged[k].what +
                                " numbers no item of this unit; nothing was written");
    }
    // Drawn after the read, the numbers pass every sequence a committed unit gave the
    // key, unless the counter went back.
    if (reads[k]->last_sequence >= first) {
      throw InfrastructureError(
          context_.store + ": the outbox key item " + item_quoted(staged[k].id) + " holds " +
          std::to_string(reads[k]->last_sequence) + ", at or past the sequence " +
          std::to_string(first) +
          " just drawn for it: the sequence counter went back (was its item deleted or "
          "changed outside docket?); nothing of the unit of work was written");
    }
    staged[k].operation = outbox::key_item_operation(*partition_, *reads[k], last);
  }
  nlohmann::json operations = nlohmann::json::array();
  for (const StagedOperation& op : staged) {
    operations.push_back(op.operation);
  }
  return operations;
}

void Unit::throw_failed(const BatchFailure& failure) const {
  const StagedOperation& op = staging_.writes().list<StagedOperation>().at(failure.index);
  const long status = failure.status;
  const std::string nothing = "; nothing of the unit of work was written";
  if (status == 409 && op.role == Role::kDedup) {
    throw DuplicateDeliveryError(std::string(kInboxMessagesTable),
                                 context_.store + ": the message's dedup item " +
                                     item_quoted(op.id) + " exists: it was processed already" +
                                     nothing);
  }
  if (status == 409) {
    throw UniqueViolationError(
        context_.container,
        context_.store + ": the " + op.what + " failed: an item with that id exists" + nothing);
  }
  if (status == 412 || status == 404) {
    throw ConditionFailedError(
        context_.container,
        context_.store + ": the " + op.what +
            (status == 412 ? " failed: the item changed since the read that gave its etag"
                           : " failed: the item does not exist") +
            nothing);
  }
  const std::string& message = failure.message;
  if (status == 400 || status == 413) {
    throw InvalidInputError(context_.store + ": the " + op.what + " was refused (HTTP " +
                            std::to_string(status) + (message.empty() ? "" : ": " + message) + ")" +
                            nothing);
  }
  throw InfrastructureError(context_.store + ": the " + op.what + " failed (HTTP " +
                            std::to_string(status) + (message.empty() ? "" : ": " + message) + ")" +
                            nothing);
}

}  // namespace docket::cosmos::detail
