// The unit of work's commit (dynamodb_unit.h): the sequenced items numbered from one
// counter draw, their holds added, one TransactWriteItems, and a cancellation read by
// the reason at each action's index.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/inbox/inbox_errors.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_unit.h"
#include "providers/kit/commit_sequences.h"
#include "providers/kit/unit_sagas.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kConditionFailed = "ConditionalCheckFailed";

// Whether the transaction was cancelled only by other transactions in flight or by
// throttling: nothing was applied, and the same actions may be sent again.
bool retryable(const ServiceError& error) {
  if (error.kind == ErrorKind::kTransactionConflict) {
    return true;
  }
  if (error.kind != ErrorKind::kTransactionCanceled) {
    return false;
  }
  const auto& reasons = error.cancellation_reasons;
  const bool any = std::any_of(reasons.begin(), reasons.end(),
                               [](const CancellationReason& r) { return r.code != "None"; });
  return any && std::all_of(reasons.begin(), reasons.end(), [](const CancellationReason& reason) {
           return reason.code == "None" || reason.code == "TransactionConflict" ||
                  reason.code == "ThrottlingError" ||
                  reason.code == "ProvisionedThroughputExceeded" ||
                  reason.code == "RequestLimitExceeded";
         });
}

// Whether the action is a put numbered at commit (not a hold, which adds their numbers).
bool numbered(const Action& action) {
  return action.sequenced && action.role != Role::kHold;
}

// Whether a lone `action` may be sent without a transaction's ClientRequestToken: a
// numbered put finds its own first try on a resend (its item holds a sequence drawn for
// this commit alone), and a dedup record that the answer of was lost is found recorded
// by the message's redelivery, which skips it (the unit wrote nothing else). A handler's
// write, an event or a saga's save gives neither, so they stay transactional.
bool single_write_may_go_alone(const Action& action) {
  return action.request.contains("Put") && (numbered(action) || action.role == Role::kDedup);
}

}  // namespace

void Unit::commit() {
  staging_.end();
  const auto& actions = staging_.writes().list<Action>();
  const std::vector<const UnitSagas::Save*> sagas = UnitSagas::latest_saves(staged_sagas());
  if (actions.empty() && sagas.empty()) {
    return;
  }
  // An outbox message or a dedup record alone is sent as its own PutItem
  // (dynamodb_unit_single_write.cc); a numbered put draws its sequence first, as in a
  // transaction. Any other lone write keeps the TransactWriteItems, whose
  // ClientRequestToken makes the client's resend after a lost answer apply once: a single
  // write has none, and only these two can do without (single_write_may_go_alone).
  if (actions.size() + sagas.size() == 1) {
    const Action& alone = actions.empty() ? sagas.front()->write : actions.front();
    if (single_write_may_go_alone(alone)) {
      commit_single_write(numbered(alone) ? numbered_items().at(0) : alone.request, numbered(alone),
                          sagas);
      return;
    }
  }
  // The draw is the last request before the commit's, so a sequence is invisible only
  // while the commit is in flight. The client's resend of the TransactWriteItems (same
  // token) is applied once, and the retries below after a cancellation that applied
  // nothing send the same numbers, but for one whose hold was refused for order, which
  // draws new ones; a commit that fails for good leaves them a gap for ever, which a
  // pull consumer waits one gap_timeout for and then passes.
  nlohmann::json request;
  const auto number = [&] {
    request = {{"TransactItems", numbered_items()}};
    for (const UnitSagas::Save* save : sagas) {
      request["TransactItems"].push_back(save->write.request);
    }
  };
  number();
  const std::string& table = actions.empty() ? sagas.front()->write.table : actions.front().table;
  for (int attempt = 1;; ++attempt) {
    // A token per attempt: the client's resend of this request after an ambiguous
    // failure carries the same token, and DynamoDB applies one token once (for ten
    // minutes); a deliberate new attempt, after a cancellation that applied nothing,
    // carries a new one.
    request["ClientRequestToken"] = Uuid::v4().to_string();
    const Response response = context_.client.call(
        {.operation = "TransactWriteItems",
         .table = table,
         .replay = Replay::kSafe,
         .expected = {ErrorKind::kTransactionCanceled, ErrorKind::kTransactionConflict}},
        request);
    if (response.ok()) {
      return;
    }
    const bool redraw = overtaken(response.error());
    if (!redraw && !retryable(response.error())) {
      throw_cancelled(response.error(), sagas);
    }
    if (attempt == kMaxCommitAttempts) {
      throw InfrastructureError(context_.store + ": a TransactWriteItems of " +
                                std::to_string(actions.size() + sagas.size()) + " actions met " +
                                std::to_string(kMaxCommitAttempts) +
                                " concurrent transactions (or throttling) in a row and was not "
                                "applied; nothing was written; retry later");
    }
    if (redraw) {
      // A unit of one of this unit's holds drew after it and committed first: the
      // numbers drawn are gaps, and new ones follow that unit's.
      number();
    }
  }
}

bool Unit::overtaken(const ServiceError& error) const {
  if (error.kind != ErrorKind::kTransactionCanceled) {
    return false;
  }
  const auto& actions = staging_.writes().list<Action>();
  const auto& reasons = error.cancellation_reasons;
  bool any = false;
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    const std::string& code = reasons[i].code;
    if (code == "None" || code == "TransactionConflict" || code == "ThrottlingError" ||
        code == "ProvisionedThroughputExceeded" || code == "RequestLimitExceeded") {
      continue;
    }
    if (code != kConditionFailed || i >= actions.size() || actions[i].role != Role::kHold ||
        refused_for_room(*actions[i].sequenced->hold, reasons[i].item, added_by(i))) {
      return false;
    }
    any = true;
  }
  return any;
}

std::size_t Unit::added_by(std::size_t hold_index) const {
  const auto& actions = staging_.writes().list<Action>();
  return static_cast<std::size_t>(
      std::count_if(actions.begin(), actions.end(), [&](const Action& action) {
        return numbered(action) && action.sequenced->hold == actions[hold_index].sequenced->hold;
      }));
}

nlohmann::json Unit::numbered_items() const {
  const auto& actions = staging_.writes().list<Action>();
  nlohmann::json items = nlohmann::json::array();
  for (const Action& action : actions) {
    items.push_back(action.request);
  }
  std::vector<std::int64_t> sequences(actions.size(), 0);
  kit::number_at_commit<SequenceCounter>(
      actions.size(),
      [&](std::size_t i) {
        return numbered(actions[i]) ? &actions[i].sequenced->counter : nullptr;
      },
      [&](const SequenceCounter& counter, std::int64_t count) {
        return draw_sequences(context_.client, counter, count, context_.store);
      },
      [&](std::size_t i, std::int64_t sequence) {
        actions[i].sequenced->number(items[i].at("Put").at("Item"), sequence);
        sequences[i] = sequence;
      });
  for (std::size_t h = 0; h < actions.size(); ++h) {
    if (actions[h].role != Role::kHold) {
      continue;
    }
    std::vector<std::int64_t> held;  // ascending: numbered in staging order
    for (std::size_t i = 0; i < actions.size(); ++i) {
      if (numbered(actions[i]) && actions[i].sequenced->hold == actions[h].sequenced->hold) {
        held.push_back(sequences[i]);
      }
    }
    // Staged with its first put and rolled back with it, a hold has at least one.
    if (held.empty()) {
      throw InfrastructureError(context_.store + ": " + actions[h].what +
                                " holds no sequence of this unit; nothing was written");
    }
    items[h] = hold_request(*actions[h].sequenced->hold, held);
  }
  return items;
}

void Unit::throw_cancelled(const ServiceError& error,
                           const std::vector<const UnitSagas::Save*>& sagas) const {
  const auto& actions = staging_.writes().list<Action>();
  // The action at index i of the request: the unit's actions, then its sagas' saves.
  const auto action_at = [&](std::size_t i) -> const Action& {
    return i < actions.size() ? actions[i] : sagas[i - actions.size()]->write;
  };
  const auto& reasons = error.cancellation_reasons;
  const std::size_t count = std::min(actions.size() + sagas.size(), reasons.size());
  const std::string nothing = "; nothing of the unit of work was written";
  // The dedup item first: a duplicate delivery explains every other failed condition;
  // then a saga another unit saved or a stream another unit appended to, which explain
  // the handler's other writes.
  for (const Role role :
       {Role::kDedup, Role::kSaga, Role::kEvent, Role::kInsert, Role::kWrite, Role::kHold}) {
    for (std::size_t i = 0; i < count; ++i) {
      const Action& action = action_at(i);
      if (reasons[i].code != kConditionFailed || action.role != role) {
        continue;
      }
      switch (role) {
        case Role::kDedup:
          throw DuplicateDeliveryError(
              action.table, context_.store + ": the message is recorded already (" + action.what +
                                " found its key taken)" + nothing);
        case Role::kSaga: {
          const UnitSagas::Save& save = *sagas[i - actions.size()];
          const std::optional<SagaRecord>& read = sagas_.first_read(save.saga).record;
          const nlohmann::json& old = reasons[i].item;
          throw kit::saga_conflict(
              context_.store, save.saga, read ? read->version : kNewSaga,
              old.is_object() ? ItemReader(old, context_.store).number(saga::kVersion) : kNewSaga);
        }
        case Role::kEvent:
          throw kit::event_conflict(context_.store, *action.event,
                                    streams_.first_read(action.event->stream_key));
        case Role::kInsert:
          throw UniqueViolationError(
              action.table, context_.store + ": " + action.what + ": table '" + action.table +
                                "' holds an item with that key already" + nothing);
        case Role::kWrite:
          throw ConditionFailedError(action.table, context_.store + ": " + action.what +
                                                       ": its condition '" + action.condition +
                                                       "' did not hold" + nothing);
        case Role::kHold: {
          const std::size_t adding = added_by(i);
          if (refused_for_room(*action.sequenced->hold, reasons[i].item, adding)) {
            // Not the message's fault, and not for ever: once the relay publishes the
            // key's earlier messages a retry stages it. So an InfrastructureError, which
            // the inbox returns for later instead of dead-lettering.
            throw InfrastructureError(
                context_.store + ": " + action.sequenced->hold->what + " has " +
                std::to_string(held_count(reasons[i].item, action.sequenced->hold->set_attribute)) +
                " unpublished messages, and the DynamoDB outbox holds at most " +
                std::to_string(action.sequenced->hold->max_held) +
                " per ordering key (its key item is limited to 400 KB), so this unit's " +
                std::to_string(adding) +
                " more cannot be staged; let the relay publish them (or skip or purge "
                "parked ones) first, or spread the messages over more ordering keys" +
                nothing);
          }
          break;  // refused for order, beside another failure: that one explains it
        }
      }
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (reasons[i].code == "ValidationError") {
      // The write itself can never be applied (an item over 400 KB, an attribute of the
      // wrong type for a key): the caller's, not the service's, and no retry does better.
      const Action& action = action_at(i);
      throw InvalidInputError(context_.store + ": DynamoDB refused " + action.what + ": " +
                              (reasons[i].message.empty() ? reasons[i].code : reasons[i].message) +
                              nothing);
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (reasons[i].code != "None") {
      const Action& action = action_at(i);
      throw InfrastructureError(
          context_.store + ": TransactWriteItems cancelled by " + action.what + ": " +
          reasons[i].code + (reasons[i].message.empty() ? "" : " (" + reasons[i].message + ")") +
          nothing);
    }
  }
  throw InfrastructureError(context_.store + ": TransactWriteItems failed: " + error.type + ": " +
                            error.message + nothing);
}

}  // namespace docket::dynamodb::detail
