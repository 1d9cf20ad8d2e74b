// The order pipeline's services on Cosmos DB (examples/order_pipeline/order_services.h).
//
// A transactional batch holds one partition of one container, so the orders and the
// invoices are items of the inbox container {prefix}docket_inbox, in the partition of the
// unit of work that writes them (the tenant's), beside the outbox's messages and the
// inbox's dedup items, told apart by docketTable:
//   "demo_orders"    id: the order id; orderId, amountCents
//   "demo_invoices"  id: a fresh v4 uuid per invoice; orderId, amountCents
// An invoice is keyed by its own id, never by its order, so a message processed twice
// would leave two invoices of one order for invoiced_orders() to show. The writes go
// through the public docket::cosmos::Transaction, so each commits in the one batch of its
// unit of work (with the outbox message, or the inbox's dedup item).
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/uuid.h"
#include "docket/cosmos/transaction.h"
#include "order_services.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/cosmos/cosmos_url.h"

namespace docket::cosmos::detail {
namespace {

using examples::OrderPlaced;

constexpr std::string_view kDemoOrders = "demo_orders";
constexpr std::string_view kDemoInvoices = "demo_invoices";

nlohmann::json demo_item(std::string_view table, const OrderPlaced& order) {
  return {
      {kTableProperty, table}, {"orderId", order.order_id}, {"amountCents", order.amount_cents}};
}

class CosmosOrderServices final : public examples::OrderServices {
 public:
  explicit CosmosOrderServices(std::string_view url)
      : client_(parse_store_url(url)), container_(client_.url().container(kInboxContainerBase)) {}

  void create_tables() const override {
    client_.ensure_container(container_, kInboxPartitionKeyPath);
  }

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).create(order.order_id, demo_item(kDemoOrders, order));
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).create(Uuid::v4().to_string(),
                                                     demo_item(kDemoInvoices, order));
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return order_ids(kDemoOrders, run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return order_ids(kDemoInvoices, run);
  }

 private:
  // The order id of each item of `table` of an order of `run`: those whose order id lies
  // in ["<run>-", "<run>."), '.' being the character after '-', one query across
  // partitions read page by page.
  std::vector<std::string> order_ids(std::string_view table, std::string_view run) const {
    std::vector<std::string> ids;
    for (const nlohmann::json& id :
         query_items(client_,
                     {.container = container_,
                     .sql = "SELECT VALUE c.orderId FROM c WHERE c.docketTable = @table AND "
                            "c.orderId >= @from AND c.orderId < @until",
                     .parameters = {{{"name", "@table"}, {"value", table}},
                                    {{"name", "@from"}, {"value", std::string(run) + "-"}},
                                    {{"name", "@until"}, {"value", std::string(run) + "."}}}},
                     std::numeric_limits<std::size_t>::max())) {
      if (id.is_string()) {
        ids.push_back(id.get<std::string>());
      }
    }
    return ids;
  }

  Client client_;
  std::string container_;
};

std::unique_ptr<examples::OrderServices> open_demo_services(std::string_view url) {
  return std::make_unique<CosmosOrderServices>(url);
}

}  // namespace
}  // namespace docket::cosmos::detail

// The entry point examples/order_pipeline/demo_providers.cc calls, by the provider's name.
namespace docket::cosmos {

const examples::DemoProvider& demo_services() {
  static const examples::DemoProvider provider{
      .example_url = "cosmos://127.0.0.1:8081?database=demo&key=KEY&tls=off",
      .open = &detail::open_demo_services};
  return provider;
}

}  // namespace docket::cosmos
