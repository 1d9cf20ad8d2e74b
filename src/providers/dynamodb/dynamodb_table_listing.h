// The tables of a DynamoDB server whose names start with a prefix: what a run or a test
// that owns a table prefix deletes when it ends (ListTables, page by page).
//
// Thread-safety: as the client's.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_LISTING_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_LISTING_H_

#include <string>
#include <string_view>
#include <vector>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail {

// Every table of the client's server (and region) named `prefix`..., in ListTables'
// order. Throws what the client throws.
std::vector<std::string> tables_with_prefix(const Client& client, std::string_view prefix);

// Deletes each of them; a table already gone is not an error.
void delete_tables_with_prefix(const Client& client, std::string_view prefix);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_LISTING_H_
