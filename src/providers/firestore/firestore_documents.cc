#include "providers/firestore/firestore_documents.h"

#include <algorithm>
#include <cstdint>

#include "docket/core/error.h"
#include "providers/firestore/firestore_limits.h"

namespace docket::firestore::detail {
namespace {

nlohmann::json precondition_json(const Precondition& precondition) {
  nlohmann::json current = nlohmann::json::object();
  if (precondition.exists) {
    current["exists"] = *precondition.exists;
  }
  if (precondition.update_time) {
    current["updateTime"] = *precondition.update_time;
  }
  return current;
}

// The request's "writes": each write checked against Firestore's limits first.
nlohmann::json writes_json(const Client& client, std::span<const Write> writes) {
  nlohmann::json out = nlohmann::json::array();
  for (const Write& write : writes) {
    nlohmann::json entry;
    const std::string name = client.url().document_name(write.collection, write.id);
    if (write.fields) {
      check_document(write.collection, write.id, *write.fields);
      entry["update"] = {{"name", name}, {"fields", *write.fields}};
      if (write.mask) {
        entry["updateMask"] = {{"fieldPaths", *write.mask}};
      }
    } else {
      check_document_id(write.collection, write.id);
      entry["delete"] = name;
    }
    if (nlohmann::json current = precondition_json(write.precondition); !current.empty()) {
      entry["currentDocument"] = std::move(current);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

// google.rpc.Code numbers of a batchWrite's per-write status that leave the write
// unapplied for a reason of the document's: NOT_FOUND, ALREADY_EXISTS,
// FAILED_PRECONDITION, ABORTED.
bool refused_for_its_document(std::int64_t code) {
  return code == 5 || code == 6 || code == 9 || code == 10;
}

}  // namespace

Document document_from_json(const nlohmann::json& json) {
  Document document;
  document.name = json.value("name", "");
  document.id = document.name.substr(document.name.rfind('/') + 1);
  document.fields = json.value("fields", nlohmann::json::object());
  document.update_time = json.value("updateTime", "");
  return document;
}

std::string collection_target(std::string_view collection) {
  return "collection '" + std::string(collection) + "'";
}

CommitResult commit(const Client& client, std::span<const Write> writes, std::string_view target,
                    std::optional<std::string_view> transaction) {
  if (writes.size() > kMaxWritesPerCommit) {
    throw InvalidInputError(
        "a Firestore commit on " + std::string(target) + " of " + std::to_string(writes.size()) +
        " writes is over Firestore's limit of " + std::to_string(kMaxWritesPerCommit) +
        " writes per commit: split it; nothing was written");
  }
  nlohmann::json request = {{"writes", writes_json(client, writes)}};
  Codes expected{Code::kFailedPrecondition, Code::kAlreadyExists, Code::kNotFound};
  if (transaction) {
    request["transaction"] = std::string(*transaction);
    expected = {Code::kFailedPrecondition, Code::kAlreadyExists, Code::kNotFound, Code::kAborted};
  }
  const Response response = client.call({.method = "commit",
                                         .target = target,
                                         .replay = Replay::kUnsafe,
                                         .in_transaction = transaction.has_value(),
                                         .expected = expected},
                                        request);
  CommitResult result;
  if (!response.ok()) {
    result.refusal = response.error();
    return result;
  }
  result.applied = true;
  for (const nlohmann::json& write_result :
       response.body().value("writeResults", nlohmann::json::array())) {
    result.update_times.push_back(write_result.value("updateTime", ""));
  }
  return result;
}

std::vector<std::optional<std::string>> write_each(const Client& client,
                                                   std::span<const Write> writes,
                                                   std::string_view target) {
  if (writes.size() > kMaxWritesPerCommit) {
    throw InvalidInputError(
        "a Firestore batch write on " + std::string(target) + " of " +
        std::to_string(writes.size()) + " writes is over Firestore's limit of " +
        std::to_string(kMaxWritesPerCommit) + " writes per request: split it; nothing was written");
  }
  const Response response =
      client.call({.method = "batchWrite", .target = target, .replay = Replay::kUnsafe},
                  {{"writes", writes_json(client, writes)}});
  const nlohmann::json& results = response.body().value("writeResults", nlohmann::json::array());
  const nlohmann::json& statuses = response.body().value("status", nlohmann::json::array());
  if (results.size() != writes.size() || statuses.size() != writes.size()) {
    throw InfrastructureError("a Firestore batch write on " + std::string(target) + " of " +
                              std::to_string(writes.size()) + " writes was answered for " +
                              std::to_string(statuses.size()) +
                              "; some writes may have been applied");
  }
  std::vector<std::optional<std::string>> update_times(writes.size());
  for (std::size_t i = 0; i < writes.size(); ++i) {
    const std::int64_t code = statuses[i].value("code", std::int64_t{0});
    if (code == 0) {
      update_times[i] = results[i].value("updateTime", "");
    } else if (!refused_for_its_document(code)) {
      throw InfrastructureError("a Firestore batch write on " + std::string(target) +
                                " failed for document '" + writes[i].id + "': status " +
                                std::to_string(code) + " (" + statuses[i].value("message", "") +
                                "); the batch's other writes may have been applied");
    }
  }
  return update_times;
}

std::vector<bool> commit_where_preconditions_hold(const Client& client,
                                                  std::span<const Write> writes,
                                                  std::string_view target) {
  std::vector<bool> applied(writes.size(), false);
  for (std::size_t start = 0; start < writes.size(); start += kMaxWritesPerCommit) {
    const std::size_t count = std::min(kMaxWritesPerCommit, writes.size() - start);
    if (commit(client, writes.subspan(start, count), target).applied) {
      std::fill_n(applied.begin() + static_cast<std::ptrdiff_t>(start), count, true);
      continue;
    }
    // A document of the chunk changed (or went) since the read: apply the others one
    // by one, each still under its own precondition.
    for (std::size_t i = start; i < start + count; ++i) {
      applied[i] = commit(client, writes.subspan(i, 1), target).applied;
    }
  }
  return applied;
}

std::size_t delete_unchanged(const Client& client, std::string_view collection,
                             std::span<const Document> documents, std::string_view target) {
  std::vector<Write> deletes;
  for (const Document& document : documents) {
    deletes.push_back({.collection = std::string(collection),
                       .id = document.id,
                       .precondition = {.update_time = document.update_time}});
  }
  const std::vector<bool> applied = commit_where_preconditions_hold(client, deletes, target);
  return static_cast<std::size_t>(std::count(applied.begin(), applied.end(), true));
}

std::string begin_transaction(const Client& client, bool read_only) {
  const nlohmann::json options = read_only
                                     ? nlohmann::json{{"readOnly", nlohmann::json::object()}}
                                     : nlohmann::json{{"readWrite", nlohmann::json::object()}};
  const Response response =
      client.call({.method = "beginTransaction", .replay = Replay::kSafe}, {{"options", options}});
  const auto id = response.body().find("transaction");
  if (id == response.body().end() || !id->is_string()) {
    throw InfrastructureError("Firestore beginTransaction at " + client.url().text +
                              " answered without a transaction id (" +
                              response.body().dump().substr(0, 200) +
                              "); is the endpoint a Firestore server?");
  }
  return id->get<std::string>();
}

void rollback(const Client& client, std::string_view transaction) noexcept {
  try {
    client.call({.method = "rollback",
                 .replay = Replay::kSafe,
                 .expected = {Code::kInvalidArgument, Code::kNotFound, Code::kAborted,
                              Code::kFailedPrecondition}},
                {{"transaction", std::string(transaction)}});
  } catch (const std::exception&) {  // the transaction expires on its own
  }
}

std::vector<std::optional<Document>> batch_get(const Client& client, std::string_view collection,
                                               std::span<const std::string> ids,
                                               std::optional<std::string_view> transaction) {
  nlohmann::json names = nlohmann::json::array();
  for (const std::string& id : ids) {
    check_document_id(collection, id);
    names.push_back(client.url().document_name(collection, id));
  }
  nlohmann::json request = {{"documents", names}};
  if (transaction) {
    request["transaction"] = std::string(*transaction);
  }
  const std::string target = collection_target(collection);
  const Response response = client.call({.method = "batchGet",
                                         .target = target,
                                         .replay = Replay::kSafe,
                                         .in_transaction = transaction.has_value()},
                                        request);
  // The answers come in any order: match them to the names asked for.
  std::vector<std::optional<Document>> found(ids.size());
  for (const nlohmann::json& answer : response.body()) {
    const auto document = answer.find("found");
    if (document == answer.end()) {
      continue;
    }
    Document read = document_from_json(*document);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (!found[i] && names[i].get_ref<const std::string&>() == read.name) {
        found[i] = std::move(read);
        break;
      }
    }
  }
  return found;
}

std::optional<Document> get_document(const Client& client, std::string_view collection,
                                     std::string_view id,
                                     std::optional<std::string_view> transaction) {
  const std::string ids[] = {std::string(id)};
  return std::move(batch_get(client, collection, ids, transaction).front());
}

}  // namespace docket::firestore::detail
