// Makes sure a table docket needs exists, has docket's key schema and is ACTIVE:
// DescribeTable; when there is none, CreateTable (on-demand, PAY_PER_REQUEST, with its
// global secondary indexes); then DescribeTable until the table and its indexes are
// ACTIVE. Another process creating the same table at the same moment is no error (its
// CreateTable wins, this one's ResourceInUseException is taken as "being created").
//
// A table that exists with another primary key, or without an index docket needs, is
// refused with a ConfigurationError naming both shapes; docket never alters or deletes
// a table.
//
// Thread-safety: a pure function of the client (which may be shared).
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_ENSURER_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_ENSURER_H_

#include <chrono>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_schema.h"

namespace docket::dynamodb::detail {

struct EnsureOptions {
  // How long to wait for the table to become ACTIVE (AWS takes seconds to a minute,
  // DynamoDB Local none).
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::chrono::milliseconds poll_interval{500};
};

enum class TableOrigin {
  kExisted,           // it was there already
  kCreated,           // this call created it
  kCreatedElsewhere,  // someone else was creating it; this call waited for it
};

// Throws ConfigurationError for a schema DynamoDB cannot create (check_schema), an
// existing table of another shape, a table being deleted, or one not ACTIVE within
// the timeout; and what Client::call throws.
TableOrigin ensure_table(const Client& client, const TableSchema& schema,
                         const EnsureOptions& options = {});

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_ENSURER_H_
