#include "providers/dynamodb/tests/dynamodb_tables.h"

#include <optional>
#include <vector>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/tests/dynamodb_env.h"
#include "support/postgres_env.h"

namespace docket::test_support {
namespace {

using dynamodb::Client;
using dynamodb::ErrorKind;
using dynamodb::Replay;

// Every table of the server whose name starts with `prefix`, ListTables page by page.
std::vector<std::string> tables_under(const Client& client, const std::string& prefix) {
  std::vector<std::string> found;
  std::optional<std::string> start;
  do {
    nlohmann::json request = {{"Limit", 100}};
    if (start) {
      request["ExclusiveStartTableName"] = *start;
    }
    const dynamodb::Response page =
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

}  // namespace

DynamoDbTables::DynamoDbTables()
    : prefix_(unique_name("docket") + "_"), url_(dynamodb_test_url() + "&table_prefix=" + prefix_) {
  drop_tables();
}

DynamoDbTables::~DynamoDbTables() {
  try {
    drop_tables();
  } catch (...) {  // a destructor cannot fail the test; the server is in memory anyway
  }
}

void DynamoDbTables::drop_tables() const {
  const Client client(dynamodb::parse_store_url(url_));
  for (const std::string& table : tables_under(client, prefix_)) {
    client.call({.operation = "DeleteTable",
                 .table = table,
                 .replay = Replay::kSafe,
                 .expected = {ErrorKind::kResourceNotFound}},
                {{"TableName", table}});
  }
}

}  // namespace docket::test_support
