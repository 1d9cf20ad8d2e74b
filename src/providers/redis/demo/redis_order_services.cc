// The order pipeline's services on Redis (examples/order_pipeline/order_services.h).
//
// Keys, under the store URL's prefix P (the demo application's own keys, written through
// the public docket::redis::Transaction, so each commits in the one script run of its
// unit of work with the outbox message or the inbox's dedup record):
//   P demo:order:{order id}  string: the order's amount in cents; inserted, so an order
//                            placed twice fails its unit
//   P demo:orders            set: every order id
//   P demo:invoices          list: the order id of each invoice, one element per
//                            invoice, so a message processed twice leaves its order
//                            twice for invoiced_orders() to show
// A run's orders are read whole (SMEMBERS, LRANGE) and kept where their id begins with
// "<run>-": a demo's keyspace, not a hot path.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/redis/transaction.h"
#include "order_services.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::detail {
namespace {

using examples::OrderPlaced;

class RedisOrderServices final : public examples::OrderServices {
 public:
  explicit RedisOrderServices(std::string_view url)
      : pool_(parse_url(url)),
        order_(pool_.url().key("demo:order:")),
        orders_(pool_.url().key("demo:orders")),
        invoices_(pool_.url().key("demo:invoices")) {}

  // Redis makes a key with its first write.
  void create_tables() const override {}

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    auto& redis_tx = examples::transaction_as<Transaction>(tx);
    redis_tx.insert(order_ + order.order_id, std::to_string(order.amount_cents));
    redis_tx.sadd(orders_, order.order_id);
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    examples::transaction_as<Transaction>(tx).rpush(invoices_, order.order_id);
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return of_run(pool_.run({"SMEMBERS", orders_}, Replay::kSafe), run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return of_run(pool_.run({"LRANGE", invoices_, "0", "-1"}, Replay::kSafe), run);
  }

 private:
  static std::vector<std::string> of_run(const Reply& reply, std::string_view run) {
    reply.ok();
    const std::string begins = std::string(run) + "-";
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < reply.size(); ++i) {
      std::string id = reply.string_at(i).value_or("");
      if (id.starts_with(begins)) {
        ids.push_back(std::move(id));
      }
    }
    return ids;
  }

  mutable Pool pool_;
  std::string order_;
  std::string orders_;
  std::string invoices_;
};

std::unique_ptr<examples::OrderServices> open_services(std::string_view url) {
  return std::make_unique<RedisOrderServices>(url);
}

}  // namespace
}  // namespace docket::redis::detail

// The entry point examples/order_pipeline/demo_providers.cc calls, by the provider's name.
namespace docket::redis {

const examples::DemoProvider& demo_services() {
  static const examples::DemoProvider provider{.example_url = "redis://127.0.0.1:6379/0",
                                               .open = &detail::open_services};
  return provider;
}

}  // namespace docket::redis
