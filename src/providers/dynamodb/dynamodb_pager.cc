#include "providers/dynamodb/dynamodb_pager.h"

#include <utility>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {

Pager::Pager(const Client& client, std::string_view operation, nlohmann::json request)
    : client_(&client), operation_(operation), request_(std::move(request)) {
  if (!request_.is_object() || !request_.contains("TableName") ||
      !request_["TableName"].is_string()) {
    throw InvalidInputError("DynamoDB " + std::string(operation) +
                            " pager: the request names no TableName; give the table to read");
  }
  if (request_.contains("ExclusiveStartKey")) {
    throw InvalidInputError("DynamoDB " + std::string(operation) +
                            " pager: the request already has an ExclusiveStartKey; the pager "
                            "sets it from each page's LastEvaluatedKey, so leave it out");
  }
  table_ = request_["TableName"].get<std::string>();
}

Pager Pager::query(const Client& client, nlohmann::json request) {
  return Pager(client, "Query", std::move(request));
}

Pager Pager::scan(const Client& client, nlohmann::json request) {
  return Pager(client, "Scan", std::move(request));
}

Pager& Pager::start_after(nlohmann::json key) {
  if (pages_read_ != 0) {
    throw InvalidInputError("DynamoDB " + std::string(operation_) + " pager on table '" + table_ +
                            "': start_after after a page was read; give the start key first");
  }
  request_["ExclusiveStartKey"] = std::move(key);
  return *this;
}

std::optional<nlohmann::json> Pager::next_page() {
  if (done_) {
    return std::nullopt;
  }
  Response response = client_->call(
      {.operation = operation_, .table = table_, .replay = Replay::kSafe, .expected = {}},
      request_);
  ++pages_read_;
  nlohmann::json& body = response.body();
  if (const auto last = body.find("LastEvaluatedKey"); last != body.end()) {
    request_["ExclusiveStartKey"] = std::move(*last);
  } else {
    done_ = true;
  }
  const auto items = body.find("Items");
  return items == body.end() ? nlohmann::json::array() : std::move(*items);
}

nlohmann::json query_all(const Client& client, nlohmann::json request) {
  Pager pager = Pager::query(client, std::move(request));
  nlohmann::json all = nlohmann::json::array();
  while (std::optional<nlohmann::json> page = pager.next_page()) {
    for (nlohmann::json& item : *page) {
      all.push_back(std::move(item));
    }
  }
  return all;
}

}  // namespace docket::dynamodb::detail
