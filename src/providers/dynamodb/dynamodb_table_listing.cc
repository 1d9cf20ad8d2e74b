#include "providers/dynamodb/dynamodb_table_listing.h"

#include <optional>

namespace docket::dynamodb::detail {

std::vector<std::string> tables_with_prefix(const Client& client, std::string_view prefix) {
  std::vector<std::string> found;
  std::optional<std::string> start;
  do {
    nlohmann::json request = {{"Limit", 100}};
    if (start) {
      request["ExclusiveStartTableName"] = *start;
    }
    const Response page =
        client.call({.operation = "ListTables", .replay = Replay::kSafe, .expected = {}}, request);
    for (const nlohmann::json& name : page.body().value("TableNames", nlohmann::json::array())) {
      if (name.get_ref<const std::string&>().starts_with(prefix)) {
        found.push_back(name.get<std::string>());
      }
    }
    start.reset();
    if (const auto last = page.body().find("LastEvaluatedTableName"); last != page.body().end()) {
      start = last->get<std::string>();
    }
  } while (start);
  return found;
}

void delete_tables_with_prefix(const Client& client, std::string_view prefix) {
  for (const std::string& table : tables_with_prefix(client, prefix)) {
    client.call({.operation = "DeleteTable",
                 .table = table,
                 .replay = Replay::kSafe,
                 .expected = {ErrorKind::kResourceNotFound}},
                {{"TableName", table}});
  }
}

}  // namespace docket::dynamodb::detail
