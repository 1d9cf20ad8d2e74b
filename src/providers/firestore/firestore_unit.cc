#include "providers/firestore/firestore_unit.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/kit/commit_sequences.h"

namespace docket::firestore::detail {
namespace {

// Firestore's rules for a collection id are its rules for a document id; a '/' would
// make the write land in a nested collection the reads never look in.
void check_unit_collection(std::string_view store, std::string_view collection) {
  if (collection.empty()) {
    throw InvalidInputError(std::string(store) +
                            ": a collection id is empty; name the collection to write");
  }
  try {
    check_document_id("(collection ids)", collection);
  } catch (const InvalidInputError& e) {
    throw InvalidInputError(std::string(store) + ": collection '" + std::string(collection) +
                            "' is not a Firestore collection id (" + e.what() +
                            "); name a top-level collection");
  }
}

void check_unit_fields(std::string_view store, const nlohmann::json& fields,
                       std::string_view what) {
  if (!fields.is_object()) {
    throw InvalidInputError(std::string(store) + ": " + std::string(what) +
                            ": fields must be a JSON object of field name to Firestore value "
                            "({\"qty\": {\"integerValue\": \"3\"}}), not " +
                            std::string(fields.type_name()));
  }
}

// A field name as an update mask's field path: a simple name as it is, any other in
// backquotes, with ` and \ escaped.
std::string unit_field_path(const std::string& name) {
  const bool simple = !name.empty() && !(name[0] >= '0' && name[0] <= '9') &&
                      std::all_of(name.begin(), name.end(), [](char c) {
                        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                               (c >= '0' && c <= '9') || c == '_';
                      });
  if (simple) {
    return name;
  }
  std::string quoted = "`";
  for (const char c : name) {
    if (c == '`' || c == '\\') {
      quoted += '\\';
    }
    quoted += c;
  }
  return quoted + '`';
}

Precondition unit_precondition_of(const Condition& condition) {
  return Precondition{.exists = condition.must_exist(), .update_time = condition.update_time()};
}

std::string unit_condition_words(const Precondition& precondition) {
  if (precondition.update_time) {
    return "unchanged since update time " + *precondition.update_time;
  }
  if (precondition.exists) {
    return *precondition.exists ? "the document exists" : "no document has the id";
  }
  return "";
}

// Whether `precondition` holds on `document` as read now.
bool unit_precondition_holds(const Precondition& precondition,
                             const std::optional<Document>& document) {
  if (precondition.update_time) {
    return document && document->update_time == *precondition.update_time;
  }
  return !precondition.exists || *precondition.exists == document.has_value();
}

}  // namespace

Unit::Unit(const UnitContext& context)
    : context_(context),
      staging_(context.store,
               kit::CommitLimits{"the Firestore inbox", kMaxWritesPerCommit, kMaxCommitBytes}),
      tx_(TransactionAccess::transaction_on(*this)) {}

void Unit::create(std::string_view collection, std::string_view id, nlohmann::json fields) {
  stage_create(collection, id, std::move(fields), Role::kCreate);
}

void Unit::set(std::string_view collection, std::string_view id, nlohmann::json fields,
               const std::optional<Condition>& condition) {
  Write write{.collection = std::string(collection), .id = std::string(id), .fields = {}};
  check_unit_fields(context_.store, fields, "set of document '" + std::string(id) + "'");
  write.fields = std::move(fields);
  if (condition) {
    write.precondition = unit_precondition_of(*condition);
  }
  stage(std::move(write), Role::kWrite, "set");
}

void Unit::update(std::string_view collection, std::string_view id, nlohmann::json fields,
                  const Condition& condition) {
  check_unit_fields(context_.store, fields, "update of document '" + std::string(id) + "'");
  if (fields.empty()) {
    throw InvalidInputError(context_.store + ": update of document '" + std::string(id) +
                            "' names no field; give the fields to write, or use check()");
  }
  std::vector<std::string> mask;
  for (const auto& [name, value] : fields.items()) {
    mask.push_back(unit_field_path(name));
  }
  stage(Write{.collection = std::string(collection),
              .id = std::string(id),
              .fields = std::move(fields),
              .precondition = unit_precondition_of(condition),
              .mask = std::move(mask)},
        Role::kWrite, "update");
}

void Unit::remove(std::string_view collection, std::string_view id,
                  const std::optional<Condition>& condition) {
  Write write{.collection = std::string(collection), .id = std::string(id)};
  if (condition) {
    write.precondition = unit_precondition_of(*condition);
  }
  stage(std::move(write), Role::kWrite, "delete");
}

void Unit::check(std::string_view collection, std::string_view id, const Condition& condition) {
  Write write{.collection = std::string(collection),
              .id = std::string(id),
              .precondition = unit_precondition_of(condition)};
  if (condition.must_exist() != std::optional<bool>(false)) {
    // An update of no field: writes nothing (not even the update time) where the
    // document exists. "Must not exist" is a delete of nothing, which writes nothing.
    write.fields = nlohmann::json::object();
    write.mask = std::vector<std::string>{};
  }
  stage(std::move(write), Role::kWrite, "check");
}

std::optional<DocumentRead> Unit::get(std::string_view collection, std::string_view id) const {
  check_unit_collection(context_.store, collection);
  std::optional<Document> document = get_document(context_.client, collection, id);
  if (!document) {
    return std::nullopt;
  }
  return DocumentRead{.id = std::move(document->id),
                      .fields = std::move(document->fields),
                      .update_time = std::move(document->update_time)};
}

void Unit::stage_create(std::string_view collection, std::string_view id, nlohmann::json fields,
                        Role role, std::optional<SequencedDocument> sequenced) {
  check_unit_fields(context_.store, fields, "create of document '" + std::string(id) + "'");
  stage(Write{.collection = std::string(collection),
              .id = std::string(id),
              .fields = std::move(fields),
              .precondition = Precondition{.exists = false}},
        role, "create", std::nullopt, std::move(sequenced));
}

void Unit::stage_event(std::string_view collection, std::string_view id, nlohmann::json fields,
                       kit::StagedEvent event) {
  stage(Write{.collection = std::string(collection),
              .id = std::string(id),
              .fields = std::move(fields),
              .precondition = Precondition{.exists = false}},
        Role::kEvent, "create", std::move(event));
}

void Unit::stage(Write write, Role role, std::string_view operation,
                 std::optional<kit::StagedEvent> event,
                 std::optional<SequencedDocument> sequenced) {
  staging_.require_open(operation);
  check_unit_collection(context_.store, write.collection);
  const std::size_t bytes = document_size(write.collection, write.id,
                                          write.fields ? *write.fields : nlohmann::json::object());
  if (write.fields) {
    check_document(write.collection, write.id, *write.fields);
  } else {
    check_document_id(write.collection, write.id);
  }
  std::string what = std::string(operation) + " of document '" + write.id + "' in collection '" +
                     write.collection + "'";
  if (holds(write.collection, write.id)) {
    if (role != Role::kWrite) {
      throw UniqueViolationError(write.collection,
                                 context_.store + ": " + what +
                                     ": this unit of work writes that document already; "
                                     "nothing was written");
    }
    throw InvalidInputError(context_.store + ": " + what +
                            ": this unit of work writes that document already, and docket "
                            "writes a document once per commit; make it one write");
  }
  std::string condition = unit_condition_words(write.precondition);
  staging_.writes().add(StagedWrite{.write = std::move(write),
                                    .role = role,
                                    .what = std::move(what),
                                    .condition = std::move(condition),
                                    .event = std::move(event),
                                    .sequenced = std::move(sequenced)},
                        1, bytes);
}

void Unit::stage_saga(UnitSagas::Save save) {
  staging_.require_open("save a saga");
  const Write& write = save.write.write;
  check_document(write.collection, write.id, *write.fields);
  const std::size_t bytes = document_size(write.collection, write.id, *write.fields);
  save.write.condition = unit_condition_words(write.precondition);
  UnitSagas::stage(staging_.writes(), std::move(save), bytes);
}

bool Unit::holds(std::string_view collection, std::string_view id) const {
  const auto& writes = staging_.writes().list<StagedWrite>();
  return std::any_of(writes.begin(), writes.end(), [&](const StagedWrite& staged) {
    return staged.write.collection == collection && staged.write.id == id;
  });
}

void Unit::commit() {
  staging_.end();
  const auto& staged = staging_.writes().list<StagedWrite>();
  const std::vector<const UnitSagas::Save*> sagas = UnitSagas::latest_saves(staged_sagas());
  if (staged.empty() && sagas.empty()) {
    return;
  }
  // The draw is the last request before the commit, so a sequence is invisible only
  // while the commit is in flight. The commit is sent once (never resent); refused or
  // failed, its numbers are a gap for ever, which a pull consumer waits one gap_timeout
  // for and then passes.
  std::vector<Write> writes = numbered_writes();
  writes.reserve(staged.size() + sagas.size());
  for (const UnitSagas::Save* save : sagas) {
    writes.push_back(save->write.write);
  }
  const CommitResult result = firestore::detail::commit(context_.client, writes, context_.store);
  if (!result.applied) {
    throw_refused(*result.refusal, sagas);
  }
}

std::vector<Write> Unit::numbered_writes() const {
  const auto& staged = staging_.writes().list<StagedWrite>();
  std::vector<Write> writes;
  writes.reserve(staged.size());
  for (const StagedWrite& write : staged) {
    writes.push_back(write.write);
  }
  kit::number_at_commit<SequenceCounter>(
      staged.size(),
      [&](std::size_t i) { return staged[i].sequenced ? &staged[i].sequenced->counter : nullptr; },
      [&](const SequenceCounter& counter, std::int64_t count) {
        return draw_sequences(context_.client, counter, count, context_.store);
      },
      [&](std::size_t i, std::int64_t sequence) {
        staged[i].sequenced->number(*writes[i].fields, sequence);
      });
  return writes;
}

void Unit::throw_refused(const ServiceError& refusal,
                         const std::vector<const UnitSagas::Save*>& sagas) const {
  // Every write of the commit, the sagas' saves last, as it was sent.
  std::vector<const StagedWrite*> sent;
  for (const StagedWrite& write : staging_.writes().list<StagedWrite>()) {
    sent.push_back(&write);
  }
  for (const UnitSagas::Save* save : sagas) {
    sent.push_back(&save->write);
  }
  const std::string nothing = "; nothing of the unit of work was written";
  // Where the dedup document is the one write with a condition, the refusal is its:
  // a duplicate delivery, known without reading anything back.
  const auto conditioned = [](const StagedWrite* write) { return !write->condition.empty(); };
  if (std::count_if(sent.begin(), sent.end(), conditioned) == 1) {
    const StagedWrite& lone = **std::find_if(sent.begin(), sent.end(), conditioned);
    if (lone.role == Role::kDedup) {
      throw DuplicateDeliveryError(
          lone.write.collection, context_.store + ": the message is recorded already (" +
                                     lone.what + " was refused: " + refusal.status + ")" + nothing);
    }
  }
  // The dedup documents first: a duplicate delivery explains every other failure; then
  // a saga another unit saved or a stream another unit appended to, which explain the
  // handler's other writes.
  for (const Role role : {Role::kDedup, Role::kSaga, Role::kEvent, Role::kCreate, Role::kWrite}) {
    for (std::size_t i = 0; i < sent.size(); ++i) {
      const StagedWrite& write = *sent[i];
      if (write.role != role || write.condition.empty()) {
        continue;
      }
      const std::optional<Document> now =
          get_document(context_.client, write.write.collection, write.write.id);
      if (unit_precondition_holds(write.write.precondition, now)) {
        continue;
      }
      const std::string& collection = write.write.collection;
      switch (role) {
        case Role::kDedup:
          throw DuplicateDeliveryError(collection, context_.store +
                                                       ": the message is recorded already (" +
                                                       write.what + " found it taken)" + nothing);
        case Role::kSaga: {
          const SagaId& saga = sagas[i - (sent.size() - sagas.size())]->saga;
          const std::optional<SagaRecord>& read = sagas_.first_read(saga).record;
          throw kit::saga_conflict(
              context_.store, saga, read ? read->version : kNewSaga,
              now ? saga::saga_record_of(*now, context_.store).version : kNewSaga);
        }
        case Role::kEvent:
          throw kit::event_conflict(context_.store, *write.event,
                                    streams_.first_read(write.event->stream_key));
        case Role::kCreate:
          throw UniqueViolationError(
              collection, context_.store + ": " + write.what + ": collection '" + collection +
                              "' holds a document with that id already" + nothing);
        case Role::kWrite:
          throw ConditionFailedError(collection, context_.store + ": " + write.what +
                                                     ": its condition (" + write.condition +
                                                     ") did not hold" + nothing);
      }
    }
  }
  throw ConditionFailedError(sent.front()->write.collection,
                             context_.store + ": Firestore refused the commit (" + refusal.status +
                                 ": " + refusal.message +
                                 "), but each of its conditions holds again now" + nothing +
                                 "; dispatch the message again");
}

Unit& joined_unit(HandlerTransaction& transaction, const Client& client,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse) {
  auto* firestore_tx = dynamic_cast<Transaction*>(&transaction);
  if (firestore_tx == nullptr) {
    throw refuse("it is another provider's transaction, and Firestore stores work only in the " +
                 std::string(Transaction::kTypeName) +
                 " of a unit of work from a Firestore inbox or outbox store");
  }
  Unit& unit = TransactionAccess::unit_of(*firestore_tx);
  const StoreUrl& theirs = unit.client().url();
  const StoreUrl& mine = client.url();
  if (theirs.endpoint != mine.endpoint || theirs.project != mine.project ||
      theirs.database != mine.database || theirs.prefix != mine.prefix) {
    throw refuse("the transaction's unit of work is on " + theirs.text + " and this store on " +
                 mine.text +
                 ": writes commit together only with a unit opened on the same URL (server, "
                 "project, database and prefix); open the inbox (or outbox) store and this "
                 "store on one URL");
  }
  return unit;
}

}  // namespace docket::firestore::detail
