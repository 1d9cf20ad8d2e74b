#include "chaos_ledger.h"

#include <map>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/stores/open_store.h"

namespace docket::tool {
namespace {

constexpr std::string_view kCustomerType = "customer";
constexpr std::string_view kAccountSaga = "CustomerAccount";
constexpr std::string_view kInvoicedEvent = "OrderInvoiced";

// "<run>-c<k>" for order "<run>-<n>", k = n % kChaosCustomers.
std::string customer_of(std::string_view order_id) {
  const std::size_t dash = order_id.rfind('-');
  if (dash == std::string_view::npos) {
    throw InvalidInputError("chaos: order id '" + std::string(order_id) + "' has no number");
  }
  const std::uint64_t n = std::stoull(std::string(order_id.substr(dash + 1)));
  return std::string(order_id.substr(0, dash)) + "-c" + std::to_string(n % kChaosCustomers);
}

std::string customer_id(std::string_view run, std::size_t k) {
  return std::string(run) + "-c" + std::to_string(k);
}

// A conflict the handler cannot resolve: thrown, so that the dispatch rolls back.
ConcurrencyConflictError conflict_error(const VersionConflict& conflict) {
  return ConcurrencyConflictError(conflict.expected_version, conflict.actual_version,
                                  "chaos: " + conflict.message());
}

}  // namespace

ChaosLedger::ChaosLedger(std::string_view store_url)
    : events_(open_event_store(store_url)), sagas_(open_saga_store(store_url)) {
  events_join_ = events_->capabilities().joins_handler_writes;
  sagas_join_ = sagas_->capabilities().joins_handler_writes;
}

void ChaosLedger::record(HandlerTransaction& tx, std::string_view order_id) const {
  const std::string customer = customer_of(order_id);
  const TenantId tenant = TenantId::default_tenant();
  if (events_join_) {
    const AppendResult appended = events_->append(
        tx, StreamId(tenant, kCustomerType, customer), ExpectedVersion::any(),
        {NewEvent{.type = std::string(kInvoicedEvent), .payload = std::string(order_id)}});
    if (!appended.succeeded()) {
      throw conflict_error(appended.conflict());
    }
  }
  if (sagas_join_) {
    const SagaId account(tenant, kAccountSaga, customer);
    const std::optional<SagaRecord> loaded = sagas_->load(tx, account);
    const std::int64_t count = loaded ? std::stoll(loaded->state) : 0;
    const SagaSaveResult saved =
        sagas_->save(tx, account, loaded ? loaded->version : kNewSaga, std::to_string(count + 1));
    if (!saved.succeeded()) {
      throw conflict_error(saved.conflict());
    }
  }
}

LedgerCheck ChaosLedger::check(std::string_view run,
                               const std::set<std::string, std::less<>>& invoiced) const {
  LedgerCheck check{.events_checked = events_join_, .sagas_checked = sagas_join_};
  std::array<std::int64_t, kChaosCustomers> orders_of{};
  for (const std::string& order : invoiced) {
    const std::string customer = customer_of(order);
    ++orders_of[std::stoull(customer.substr(customer.rfind('c') + 1))];
  }
  const TenantId tenant = TenantId::default_tenant();
  std::map<std::string, int, std::less<>> events_of_order;
  for (std::size_t k = 0; k < kChaosCustomers; ++k) {
    const std::string customer = customer_id(run, k);
    if (events_join_) {
      const std::vector<RecordedEvent> events =
          events_->load(StreamId(tenant, kCustomerType, customer));
      check.events += static_cast<std::int64_t>(events.size());
      for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].version != static_cast<std::int64_t>(i)) {
          ++check.version_gaps;
          break;
        }
      }
      for (const RecordedEvent& event : events) {
        ++events_of_order[event.payload];
      }
    }
    if (sagas_join_) {
      const std::optional<SagaRecord> account =
          sagas_->load(SagaId(tenant, kAccountSaga, customer));
      const std::int64_t expected = orders_of[k];
      const bool matches = expected == 0 ? !account
                                         : account && account->version == expected - 1 &&
                                               account->state == std::to_string(expected);
      check.saga_mismatches += matches ? 0 : 1;
    }
  }
  if (events_join_) {
    for (const auto& [order, count] : events_of_order) {
      check.events_doubled += count > 1 ? 1 : 0;
    }
    for (const std::string& order : invoiced) {
      check.events_lost += events_of_order.contains(order) ? 0 : 1;
    }
  }
  return check;
}

}  // namespace docket::tool
