// The order pipeline's services on DynamoDB (examples/order_pipeline/order_services.h).
//
// Tables, under the store URL's table_prefix P, made on demand (PAY_PER_REQUEST) when
// missing:
//   P + "demo_orders"    key order_id (S); amount_cents (N)
//   P + "demo_invoices"  key invoice_id (S, a fresh v4 uuid per invoice); order_id (S),
//                        amount_cents (N)
// An invoice is keyed by its own id, never by its order, so a message processed twice
// would leave two invoices of one order for invoiced_orders() to show. The writes go
// through the public docket::dynamodb::Transaction, so each commits in the one
// TransactWriteItems of its unit of work (the outbox item, or the inbox's dedup item).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/uuid.h"
#include "docket/dynamodb/transaction.h"
#include "order_services.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail {
namespace {

using examples::OrderPlaced;

constexpr std::string_view kOrdersBase = "demo_orders";
constexpr std::string_view kInvoicesBase = "demo_invoices";
constexpr std::string_view kOrderId = "order_id";
constexpr std::string_view kInvoiceId = "invoice_id";
constexpr std::string_view kAmount = "amount_cents";

class DynamoDbOrderServices final : public examples::OrderServices {
 public:
  explicit DynamoDbOrderServices(std::string_view url)
      : client_(parse_store_url(url)),
        orders_(client_.url().table_name(kOrdersBase)),
        invoices_(client_.url().table_name(kInvoicesBase)) {}

  void create_tables() const override {
    ensure_table(client_, {.name = orders_,
                           .partition_key = {std::string(kOrderId), KeyType::kString},
                           .sort_key = std::nullopt,
                           .global_indexes = {}});
    ensure_table(client_, {.name = invoices_,
                           .partition_key = {std::string(kInvoiceId), KeyType::kString},
                           .sort_key = std::nullopt,
                           .global_indexes = {}});
  }

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).insert(
        orders_,
        {{kOrderId, string_value(order.order_id)}, {kAmount, number_value(order.amount_cents)}});
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).insert(
        invoices_, {{kInvoiceId, string_value(Uuid::v4().to_string())},
                    {kOrderId, string_value(order.order_id)},
                    {kAmount, number_value(order.amount_cents)}});
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return order_ids(orders_, run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return order_ids(invoices_, run);
  }

 private:
  // The order id of each item of `table` of an order of `run`: a consistent Scan, page
  // by page.
  std::vector<std::string> order_ids(const std::string& table, std::string_view run) const {
    constexpr std::string_view kOfRun = "begins_with(#order_id, :run)";
    constexpr std::string_view kOrderOnly = "#order_id";
    Pager pager = Pager::scan(
        client_, {{"TableName", table},
                  {"ConsistentRead", true},
                  {"FilterExpression", kOfRun},
                  {"ProjectionExpression", kOrderOnly},
                  {"ExpressionAttributeNames", attribute_names({kOfRun, kOrderOnly})},
                  {"ExpressionAttributeValues", {{":run", string_value(std::string(run) + "-")}}}});
    std::vector<std::string> ids;
    while (const auto page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        ids.emplace_back(ItemReader(item, "DynamoDB demo " + table).string(kOrderId));
      }
    }
    return ids;
  }

  Client client_;
  std::string orders_;
  std::string invoices_;
};

std::unique_ptr<examples::OrderServices> open_services(std::string_view url) {
  return std::make_unique<DynamoDbOrderServices>(url);
}

}  // namespace
}  // namespace docket::dynamodb::detail

// The entry point examples/order_pipeline/demo_providers.cc calls, by the provider's name.
namespace docket::dynamodb {

const examples::DemoProvider& demo_services() {
  static const examples::DemoProvider provider{
      .example_url = "dynamodb://127.0.0.1:8000?region=us-east-1", .open = &detail::open_services};
  return provider;
}

}  // namespace docket::dynamodb
