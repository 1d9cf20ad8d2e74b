// The DynamoDB provider's bench side (bench/bench_provider.h), for `docket bench claim`:
// a run on dynamodb://...?region=R[&table_prefix=P] puts each side under a table
// prefix of its own on the same server, P followed by the side's name and '_'
// (docket_bench_docket_, docket_bench_raw_), so both sides' tables have one shape and
// grow in step. The checks read a side's table with a Scan, bypassing docket.
#include <algorithm>
#include <memory>
#include <string>

#include "bench_provider.h"
#include "docket/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "raw_claim_dynamodb.h"

namespace docket::bench {
namespace {

constexpr std::string_view kPrefixParameter = "table_prefix=";
constexpr std::string_view kChecks = "DynamoDB bench check";
constexpr std::string_view kOfHandler = "#handler_type = :handler_type";
constexpr std::string_view kStatusOnly = "#status";

// `url` with `side` and '_' appended to its table prefix (or as its prefix).
std::string side_url(std::string_view url, std::string_view side) {
  std::string text(url);
  const std::string suffix = std::string(side) + "_";
  if (const std::size_t at = text.find(kPrefixParameter); at != std::string::npos) {
    text.insert(std::min(text.find('&', at), text.size()), suffix);
  } else {
    text += "&" + std::string(kPrefixParameter) + suffix;
  }
  dynamodb::parse_store_url(text);  // refuses a prefix grown past DynamoDB's limits
  return text;
}

std::string claim_table(const std::string& url) {
  return dynamodb::claim::claim_table_schema(dynamodb::parse_store_url(url)).name;
}

class DynamoDbClaimBench final : public ClaimBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t) const override {
    return std::make_unique<dynamodb::DynamoDbClaimInboxStore>(db, SystemClock::instance());
  }

  void prepare(const BenchStore& store) const override {
    dynamodb::DynamoDbClaimInboxStore(store.raw_db, SystemClock::instance()).migrate();
  }

  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override {
    const dynamodb::Client client(dynamodb::parse_store_url(db));
    dynamodb::Pager pager = dynamodb::Pager::scan(
        client,
        {{"TableName", claim_table(db)},
         {"ConsistentRead", true},
         {"FilterExpression", kOfHandler},
         {"ProjectionExpression", kStatusOnly},
         {"ExpressionAttributeNames", dynamodb::attribute_names({kOfHandler, kStatusOnly})},
         {"ExpressionAttributeValues", {{":handler_type", dynamodb::string_value(handler_type)}}}});
    ClaimRows rows;
    while (const auto page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        ++rows.entries;
        const dynamodb::ItemReader read(item, kChecks);
        rows.processed += read.string(dynamodb::claim::kStatus) == "processed" ? 1 : 0;
      }
    }
    return rows;
  }

  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override {
    return std::make_unique<RawClaimDynamoDb>(raw_db, handler_type, owner);
  }
};

class DynamoDbBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override {
    return "dynamodb://127.0.0.1:8000?region=us-east-1";
  }

  // Whether a server keeps its tables in memory (DynamoDB Local -inMemory) cannot be
  // told from the URL: every write is acknowledged as durable.
  bool in_memory(std::string_view) const override { return false; }

  BenchStore bench_store(std::string_view url, std::string_view docket_side,
                         std::string_view raw_side) const override {
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = side_url(url, docket_side),
                      .raw_db = side_url(url, raw_side),
                      .docket_schema = {},
                      .raw_schema = {}};
  }

  // The stores make their tables when missing.
  void create_sides(const BenchStore&) const override {}

  void drop_sides(const BenchStore& store) const override {
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      const dynamodb::Client client(dynamodb::parse_store_url(db));
      const std::string table = claim_table(db);
      client.call({.operation = "DeleteTable",
                   .table = table,
                   .replay = dynamodb::Replay::kSafe,
                   .expected = {dynamodb::ErrorKind::kResourceNotFound}},
                  {{"TableName", table}});
    }
  }

  const ClaimBench* claim() const noexcept override { return &claim_; }

 private:
  DynamoDbClaimBench claim_;
};

}  // namespace
}  // namespace docket::bench

namespace docket::dynamodb {

const bench::ProviderBench& bench_sides() {
  static const bench::DynamoDbBench sides;
  return sides;
}

}  // namespace docket::dynamodb
