// A projection on SQLite: account events appended to the event store, and a
// "balances" read model built from the store's feed by an EventFeedConsumer. Each
// event's balance update commits with its dedup row in the inbox's unit of work, so a
// restarted consumer, or a page read again after a crash, never counts a deposit twice.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/inbox/inbox_dispatcher.h"
#include "docket/projections/event_feed_consumer.h"
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"

namespace bank {

struct Deposited {
  int cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposited, cents)

}  // namespace bank

namespace {

docket::NewEvent deposit(int cents) {
  return {.type = "deposited", .payload = nlohmann::json(bank::Deposited{cents}).dump()};
}

// The projection: adds each deposit to its account's row in `balances`.
docket::HandlerRegistry balance_handlers() {
  docket::HandlerRegistry handlers;
  handlers.on<bank::Deposited>(
      "deposited",
      [](const bank::Deposited& d, docket::sqlite::Transaction& tx, docket::HandlerContext& ctx) {
        const docket::RecordedEvent& event = docket::EventFeedConsumer::current_event(ctx);
        tx.exec(
            "INSERT INTO balances (tenant, account, cents) VALUES (?1, ?2, ?3) "
            "ON CONFLICT (tenant, account) DO UPDATE SET cents = cents + excluded.cents",
            {ctx.tenant().value(), event.stream.aggregate_id(), std::int64_t{d.cents}});
      });
  return handlers;
}

std::int64_t balance(docket::InboxStore& store, std::string_view tenant, std::string_view account) {
  auto unit = store.begin();
  auto& tx = unit->transaction<docket::sqlite::Transaction>();
  const auto rows =
      tx.query("SELECT cents FROM balances WHERE tenant = ?1 AND account = ?2", {tenant, account});
  return rows.empty() ? 0 : std::get<std::int64_t>(rows.at(0).at(0));
}

// Appends deposits, projects them in two consumer lifetimes; true when the balances
// count every deposit once.
bool run(const std::string& path) {
  const docket::sqlite::StoreOptions options{.path = path};  // one file for everything
  auto inbox_store = docket::sqlite::open_store(options);
  auto events = docket::sqlite::open_event_store(options);
  {
    auto unit = inbox_store->begin();
    unit->transaction<docket::sqlite::Transaction>().exec(
        "CREATE TABLE balances (tenant TEXT, account TEXT, cents INTEGER, "
        "PRIMARY KEY (tenant, account))");
    unit->commit();
  }
  const docket::InboxDispatcher projection(*inbox_store, docket::InboxOptions("balances"),
                                           balance_handlers());
  const docket::TenantId acme("acme");
  const docket::TenantId globex("globex");
  events->append(docket::StreamId(acme, "account", "A-1"), docket::ExpectedVersion::any(),
                 {deposit(100), deposit(250)});
  events->append(docket::StreamId(globex, "account", "A-1"), docket::ExpectedVersion::any(),
                 {deposit(70)});
  {
    docket::EventFeedConsumer consumer(*events, projection, {.batch_size = 2});
    const docket::EventFeedPass pass = consumer.run_once();  // one page, then a crash
    std::cout << "first run: " << pass.processed << " applied, checkpoint " << pass.checkpoint
              << '\n';
  }
  {
    // ... that lost the checkpoint write: a whole-feed consumer keeps its checkpoint
    // under "__untenanted__". The page will be read again.
    const docket::TenantScope whole_feed(docket::TenantId::untenanted());
    inbox_store->checkpoints().set("balances", "0");
  }
  events->append(docket::StreamId(acme, "account", "A-1"), docket::ExpectedVersion::any(),
                 {deposit(5)});
  docket::EventFeedConsumer restarted(*events, projection, {.batch_size = 2});
  for (docket::EventFeedPass pass = restarted.run_once(); pass.read > 0;
       pass = restarted.run_once()) {
    std::cout << "restarted: " << pass.processed << " applied, " << pass.skipped
              << " skipped, checkpoint " << pass.checkpoint << '\n';
  }
  const std::int64_t acme_cents = balance(*inbox_store, "acme", "A-1");
  const std::int64_t globex_cents = balance(*inbox_store, "globex", "A-1");
  std::cout << "acme A-1: " << acme_cents << " cents, globex A-1: " << globex_cents << " cents\n";
  return acme_cents == 355 && globex_cents == 70;
}

}  // namespace

int main() {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("docket-account-projection-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const bool ok = run((dir / "app.db").string());
  std::filesystem::remove_all(dir);
  return ok ? 0 : 1;
}
