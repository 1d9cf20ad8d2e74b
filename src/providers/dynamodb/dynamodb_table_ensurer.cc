#include "providers/dynamodb/dynamodb_table_ensurer.h"

#include <string>
#include <thread>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace {

// DescribeTable's "Table", or null when there is no such table.
nlohmann::json describe_table(const Client& client, const std::string& table) {
  const Response response = client.call({.operation = "DescribeTable",
                                         .table = table,
                                         .replay = Replay::kSafe,
                                         .expected = {ErrorKind::kResourceNotFound}},
                                        {{"TableName", table}});
  return response.ok() ? response.body().value("Table", nlohmann::json::object())
                       : nlohmann::json();
}

bool active(const nlohmann::json& table) {
  if (table.value("TableStatus", "") != "ACTIVE") {
    return false;
  }
  for (const nlohmann::json& index :
       table.value("GlobalSecondaryIndexes", nlohmann::json::array())) {
    if (index.value("IndexStatus", "") != "ACTIVE") {
      return false;
    }
  }
  return true;
}

void check_shape(const Client& client, const TableSchema& schema, const nlohmann::json& table) {
  if (const auto mismatch = schema_mismatch(schema, table)) {
    throw ConfigurationError("DynamoDB table '" + schema.name + "' at " + client.url().text +
                             " exists, but " + *mismatch +
                             ". docket does not alter tables: choose another table_prefix in "
                             "the store URL, or delete the table so docket can create it.");
  }
  if (table.value("TableStatus", "") == "DELETING") {
    throw ConfigurationError("DynamoDB table '" + schema.name + "' at " + client.url().text +
                             " is being deleted; wait until it is gone, then open the store "
                             "again (docket will create it anew)");
  }
}

}  // namespace

TableOrigin ensure_table(const Client& client, const TableSchema& schema,
                         const EnsureOptions& options) {
  check_schema(schema);
  nlohmann::json table = describe_table(client, schema.name);
  TableOrigin origin = TableOrigin::kExisted;
  if (table.is_null()) {
    const Response created =
        client.call({.operation = "CreateTable",
                     .table = schema.name,
                     .replay = Replay::kSafe,
                     .expected = {ErrorKind::kResourceInUse, ErrorKind::kCredentials}},
                    create_table_request(schema));
    if (!created.ok() && created.error().kind == ErrorKind::kCredentials) {
      // The common case on AWS: a role that may use its tables but not create them.
      throw ConfigurationError(
          "DynamoDB table '" + schema.name + "' at " + client.url().text +
          " does not exist, and creating it was refused (" + created.error().type + ": " +
          created.error().message +
          "); nothing was written. Create the table with the key schema and indexes in "
          "docs/dynamodb-stores.md (or run docket once with credentials allowed "
          "dynamodb:CreateTable), or point the store URL's table_prefix at tables that exist.");
    }
    origin = created.ok() ? TableOrigin::kCreated : TableOrigin::kCreatedElsewhere;
    table = created.ok() ? created.body().value("TableDescription", nlohmann::json::object())
                         : describe_table(client, schema.name);
  }

  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  while (true) {
    if (!table.is_null()) {
      check_shape(client, schema, table);
      if (active(table)) {
        return origin;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      throw ConfigurationError(
          "DynamoDB table '" + schema.name + "' at " + client.url().text + " is not ACTIVE " +
          std::to_string(options.timeout.count()) + " ms after docket " +
          (origin == TableOrigin::kCreated ? "created it" : "found it") + " (status " +
          (table.is_null() ? std::string("gone") : table.value("TableStatus", std::string("?"))) +
          "); check it in the AWS console, then open the store again");
    }
    std::this_thread::sleep_for(options.poll_interval);
    table = describe_table(client, schema.name);
  }
}

}  // namespace docket::dynamodb::detail
