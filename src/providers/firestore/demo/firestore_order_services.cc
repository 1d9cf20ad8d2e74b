// The order pipeline's services on Firestore (examples/order_pipeline/order_services.h).
//
// Collections, under the store URL's prefix P (Firestore makes a collection with its
// first document, so there is nothing to create):
//   P + "demo_orders"    document id: the order id; orderId, amountCents
//   P + "demo_invoices"  document id: a fresh v4 uuid per invoice; orderId, amountCents
// An invoice is keyed by its own id, never by its order, so a message processed twice
// would leave two invoices of one order for invoiced_orders() to show. The writes go
// through the public docket::firestore::Transaction, so each commits in the one commit
// of its unit of work (the outbox document, or the inbox's dedup document).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/uuid.h"
#include "docket/firestore/transaction.h"
#include "order_services.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_url.h"
#include "providers/firestore/firestore_value.h"

namespace docket::firestore::detail {
namespace {

using examples::OrderPlaced;

constexpr std::string_view kOrdersBase = "demo_orders";
constexpr std::string_view kInvoicesBase = "demo_invoices";
constexpr std::string_view kOrderId = "orderId";
constexpr std::string_view kAmount = "amountCents";
constexpr std::size_t kCountPage = 300;

nlohmann::json order_fields(const OrderPlaced& order) {
  return {{kOrderId, string_value(order.order_id)}, {kAmount, integer_value(order.amount_cents)}};
}

class FirestoreOrderServices final : public examples::OrderServices {
 public:
  explicit FirestoreOrderServices(std::string_view url)
      : client_(parse_store_url(url)),
        orders_(client_.url().collection(kOrdersBase)),
        invoices_(client_.url().collection(kInvoicesBase)) {}

  // Firestore makes a collection with its first document.
  void create_tables() const override {}

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).create(orders_, order.order_id, order_fields(order));
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).create(invoices_, Uuid::v4().to_string(),
                                                     order_fields(order));
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return order_ids(orders_, run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return order_ids(invoices_, run);
  }

 private:
  // The order id of each document of `collection` of an order of `run`, page by page:
  // those whose order id lies in ["<run>-", "<run>."), '.' being the character after
  // '-' (a query reads committed documents, strongly consistent).
  std::vector<std::string> order_ids(const std::string& collection, std::string_view run) const {
    const std::string from = std::string(run) + "-";
    const std::string until = std::string(run) + ".";
    std::vector<std::string> ids;
    query_pages(
        client_,
        {.collection = collection,
         .where = all_of({field_filter(kOrderId, "GREATER_THAN_OR_EQUAL", string_value(from)),
                          field_filter(kOrderId, "LESS_THAN", string_value(until))}),
         .order_by = {{std::string(kOrderId), false}}},
        kCountPage, [&](std::vector<Document>& page) {
          for (const Document& document : page) {
            ids.emplace_back(
                FieldReader(document.fields, "Firestore demo " + collection + " " + document.id)
                    .string(kOrderId));
          }
          return true;
        });
    return ids;
  }

  Client client_;
  std::string orders_;
  std::string invoices_;
};

std::unique_ptr<examples::OrderServices> open_services(std::string_view url) {
  return std::make_unique<FirestoreOrderServices>(url);
}

}  // namespace
}  // namespace docket::firestore::detail

// The entry point examples/order_pipeline/demo_providers.cc calls, by the provider's name.
namespace docket::firestore {

const examples::DemoProvider& demo_services() {
  static const examples::DemoProvider provider{
      .example_url = "firestore://127.0.0.1:8080?project=demo", .open = &detail::open_services};
  return provider;
}

}  // namespace docket::firestore
