#include "providers/firestore/firestore_query.h"

#include "providers/firestore/firestore_limits.h"

namespace docket::firestore::detail {
namespace {

constexpr std::string_view kNameField = "__name__";

}  // namespace

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
      documents.push_back(document_from_json(*document));
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

}  // namespace docket::firestore::detail
