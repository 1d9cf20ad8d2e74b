#include "providers/firestore/firestore_documents.h"

#include "docket/error.h"
#include "providers/firestore/firestore_limits.h"

namespace docket::firestore {
namespace {

constexpr std::string_view kNameField = "__name__";

Document document_of(const nlohmann::json& json) {
  Document document;
  document.name = json.value("name", "");
  document.id = document.name.substr(document.name.rfind('/') + 1);
  document.fields = json.value("fields", nlohmann::json::object());
  document.update_time = json.value("updateTime", "");
  return document;
}

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

std::string collection_target(std::string_view collection) {
  return "collection '" + std::string(collection) + "'";
}

}  // namespace

CommitResult commit(const Client& client, std::span<const Write> writes, std::string_view target,
                    std::optional<std::string_view> transaction) {
  if (writes.size() > kMaxWritesPerCommit) {
    throw InvalidInputError(
        "a Firestore commit on " + std::string(target) + " of " + std::to_string(writes.size()) +
        " writes is over Firestore's limit of " + std::to_string(kMaxWritesPerCommit) +
        " writes per commit: split it; nothing was written");
  }
  nlohmann::json request = {{"writes", nlohmann::json::array()}};
  for (const Write& write : writes) {
    nlohmann::json entry;
    const std::string name = client.url().document_name(write.collection, write.id);
    if (write.fields) {
      check_document(write.collection, write.id, *write.fields);
      entry["update"] = {{"name", name}, {"fields", *write.fields}};
    } else {
      check_document_id(write.collection, write.id);
      entry["delete"] = name;
    }
    if (nlohmann::json current = precondition_json(write.precondition); !current.empty()) {
      entry["currentDocument"] = std::move(current);
    }
    request["writes"].push_back(std::move(entry));
  }
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
    Document read = document_of(*document);
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

nlohmann::json field_filter(std::string_view field, std::string_view op, nlohmann::json value) {
  return {{"fieldFilter",
           {{"field", {{"fieldPath", std::string(field)}}},
            {"op", std::string(op)},
            {"value", std::move(value)}}}};
}

nlohmann::json all_of(std::vector<nlohmann::json> filters) {
  if (filters.empty()) {
    return nullptr;
  }
  if (filters.size() == 1) {
    return std::move(filters.front());
  }
  return {{"compositeFilter", {{"op", "AND"}, {"filters", std::move(filters)}}}};
}

std::vector<Document> run_query(const Client& client, const Query& query,
                                std::optional<std::string_view> transaction) {
  nlohmann::json structured = {{"from", {{{"collectionId", query.collection}}}}};
  if (!query.where.is_null()) {
    structured["where"] = query.where;
  }
  nlohmann::json order = nlohmann::json::array();
  for (const auto& [field, descending] : query.order_by) {
    order.push_back({{"field", {{"fieldPath", field}}},
                     {"direction", descending ? "DESCENDING" : "ASCENDING"}});
  }
  if (!order.empty()) {
    structured["orderBy"] = std::move(order);
  }
  if (query.start_after) {
    structured["startAt"] = {{"values", *query.start_after}, {"before", false}};
  }
  if (query.limit > 0) {
    structured["limit"] = query.limit;
  }
  nlohmann::json request = {{"structuredQuery", std::move(structured)}};
  if (transaction) {
    request["transaction"] = std::string(*transaction);
  }
  const std::string target = collection_target(query.collection);
  const Response response = client.call({.method = "runQuery",
                                         .target = target,
                                         .replay = Replay::kSafe,
                                         .in_transaction = transaction.has_value()},
                                        request);
  std::vector<Document> documents;
  for (const nlohmann::json& answer : response.body()) {
    if (const auto document = answer.find("document"); document != answer.end()) {
      documents.push_back(document_of(*document));
    }
  }
  return documents;
}

nlohmann::json cursor_of(const Document& document,
                         const std::vector<std::pair<std::string, bool>>& order_by) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& [field, descending] : order_by) {
    if (field == kNameField) {
      values.push_back({{"referenceValue", document.name}});
    } else {
      const auto value = document.fields.find(field);
      values.push_back(value == document.fields.end() ? nlohmann::json{{"nullValue", nullptr}}
                                                      : *value);
    }
  }
  return values;
}

void query_pages(const Client& client, Query query, std::size_t page_size,
                 const std::function<bool(std::vector<Document>&)>& on_page) {
  if (query.order_by.empty() || query.order_by.back().first != kNameField) {
    query.order_by.emplace_back(kNameField, false);
  }
  query.limit = page_size;
  for (;;) {
    std::vector<Document> page = run_query(client, query);
    if (page.empty()) {
      return;
    }
    query.start_after = cursor_of(page.back(), query.order_by);
    const bool full = page.size() == page_size;
    if (!on_page(page) || !full) {
      return;
    }
  }
}

std::uint64_t delete_collection(const Client& client, std::string_view collection) {
  std::uint64_t deleted = 0;
  const std::string target = collection_target(collection);
  query_pages(client, {.collection = std::string(collection)}, kMaxWritesPerCommit,
              [&](std::vector<Document>& page) {
                std::vector<Write> deletes;
                for (const Document& document : page) {
                  deletes.push_back({.collection = std::string(collection), .id = document.id});
                }
                commit(client, deletes, target);
                deleted += deletes.size();
                return true;
              });
  return deleted;
}

nlohmann::json reference_value(const Client& client, std::string_view collection,
                               std::string_view id) {
  return {{"referenceValue", client.url().document_name(collection, id)}};
}

}  // namespace docket::firestore
