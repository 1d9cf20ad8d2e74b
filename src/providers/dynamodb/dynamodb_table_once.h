// A store's table, made sure of once: the first call of ensure() that succeeds runs
// ensure_table (DescribeTable, CreateTable when missing, wait for ACTIVE); every later
// call returns at once. A call that throws leaves it to the next call to try again, so
// a server that was down at first use does not break the store for good.
//
// Thread-safety: ensure() may be called from many threads at once; one runs
// ensure_table while the others wait for it.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_ONCE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_ONCE_H_

#include <mutex>
#include <string>
#include <utility>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/dynamodb_table_schema.h"

namespace docket::dynamodb::detail {

class TableOnce {
 public:
  explicit TableOnce(TableSchema schema) : schema_(std::move(schema)) {}

  // Throws what ensure_table throws.
  void ensure(const Client& client) {
    std::call_once(once_, [&] { ensure_table(client, schema_); });
  }

  const TableSchema& schema() const noexcept { return schema_; }
  const std::string& name() const noexcept { return schema_.name; }

 private:
  TableSchema schema_;
  std::once_flag once_;
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_ONCE_H_
