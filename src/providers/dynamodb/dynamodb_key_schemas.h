// The key schemas of the application's own tables, which a handler's writes name: read
// once per table and store with DescribeTable, so that each write is checked against
// DynamoDB's limits, and two writes to one item in one transaction are told apart
// before anything is sent.
//
// Thread-safety: of() may be called from many threads at once; a schema, once read,
// stays where it is for the cache's life.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_KEY_SCHEMAS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_KEY_SCHEMAS_H_

#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_schema.h"

namespace docket::dynamodb::detail {

// The schema DescribeTable's "Table" describes: its primary key and its global indexes'
// keys. Throws InfrastructureError when the description lacks them.
TableSchema table_schema_of(const nlohmann::json& description);

class KeySchemas {
 public:
  // `client` must outlive the cache.
  explicit KeySchemas(const Client& client) : client_(client) {}

  // The schema of `table`. Throws ConfigurationError naming the table when it does not
  // exist (what Client::call throws for ResourceNotFound).
  const TableSchema& of(std::string_view table);

 private:
  const Client& client_;
  std::mutex mutex_;
  std::map<std::string, TableSchema, std::less<>> schemas_;  // never erased
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_KEY_SCHEMAS_H_
