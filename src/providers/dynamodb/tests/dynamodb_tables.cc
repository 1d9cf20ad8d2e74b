#include "providers/dynamodb/tests/dynamodb_tables.h"

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_listing.h"
#include "providers/dynamodb/tests/dynamodb_env.h"
#include "support/unique_name.h"

namespace docket::test_support {

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
  dynamodb::detail::delete_tables_with_prefix(
      dynamodb::detail::Client(dynamodb::detail::parse_store_url(url_)), prefix_);
}

}  // namespace docket::test_support
