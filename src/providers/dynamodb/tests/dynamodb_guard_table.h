// Shared by the DynamoDB legacy-guard tests (dynamodb_legacy_guard_test.cc,
// dynamodb_saga_guard_test.cc): the table of one guarded store kind under a table prefix
// of the test's own on DynamoDB Local, read with Scans, for the document providers'
// guard cases (tests/document/legacy_guard_cases.h) and for the guard's documented
// blind spot (a legacy item beyond the first Scan page is missed).
#ifndef DOCKET_PROVIDERS_DYNAMODB_TESTS_DYNAMODB_GUARD_TABLE_H_
#define DOCKET_PROVIDERS_DYNAMODB_TESTS_DYNAMODB_GUARD_TABLE_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "document/legacy_guard_cases.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::detail {

// `Concrete`'s table (collection()), whose items carry their partition key in
// `key_attribute()`.
template <class Store, class Concrete>
class DynamoDbGuardTable : public document_tests::ConcreteGuardStores<Store, Concrete> {
 public:
  std::string url() const override { return tables_.url(); }

  // Each item: its partition key, then the item.
  std::vector<std::string> records() const override {
    std::vector<std::string> found;
    for (const nlohmann::json& item : scanned()) {
      found.push_back(key_of(item) + " " + item.dump());
    }
    return found;
  }

  // Every item, in Scan order, `limit` per page (all pages).
  std::vector<nlohmann::json> scanned(int limit = 100) const {
    Pager pager = Pager::scan(client_, {{"TableName", this->collection()}, {"Limit", limit}});
    std::vector<nlohmann::json> items;
    while (const auto page = pager.next_page()) {
      items.insert(items.end(), page->begin(), page->end());
    }
    return items;
  }

  // Puts the legacy item `legacy_key` and tenanted ones (`tenanted_prefix` and a
  // suffix) until one of them, not the legacy item, comes first in Scan order: a probe
  // reading one page of one item then misses the legacy item.
  void bury_legacy_item(std::string_view legacy_key, const std::string& tenanted_prefix) const {
    this->put_raw(tenanted_prefix + "first");
    this->put_raw(legacy_key);
    int tenanted = 0;
    while (first_key() == legacy_key && tenanted < 64) {
      this->put_raw(tenanted_prefix + "S-" + std::to_string(tenanted++));
    }
    ASSERT_NE(first_key(), legacy_key) << "the legacy item stayed first in Scan order";
  }

  test_support::DynamoDbTables tables_;
  Client client_{parse_store_url(tables_.url())};

 protected:
  // The partition key's attribute: "stream", "pk".
  virtual std::string_view key_attribute() const = 0;

 private:
  std::string key_of(const nlohmann::json& item) const {
    return item.at(std::string(key_attribute())).at("S").get<std::string>();
  }
  std::string first_key() const { return key_of(scanned(1).front()); }
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_TESTS_DYNAMODB_GUARD_TABLE_H_
