// A program outside the docket tree, built by scripts/install_test.sh each way a C++
// user consumes docket (CMake package, pkg-config, the Debian package, add_subdirectory)
// from the same source. It opens a real SQLite inbox from a URL (docket::stores),
// dispatches a message whose handler writes through the SQLite transaction, redelivers
// it, and exits non-zero unless the handler ran once and its row committed.
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include "docket/core/error.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_options.h"
#include "docket/sqlite/transaction.h"
#include "docket/stores/open_store.h"

namespace consumer {

struct Deposit {
  std::string account;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposit, account, cents)

}  // namespace consumer

namespace {

// A directory of this run's own, removed on every exit from main.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "docket-consumer-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("consumer: cannot create a scratch directory");
    }
    path_ = pattern;
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

bool check(bool holds, const std::string& what) {
  if (!holds) {
    std::cerr << "consumer: expected " << what << '\n';
  }
  return holds;
}

int run() {
  const ScratchDirectory scratch;
  const std::string url = "sqlite://" + (scratch.path() / "inbox.db").string();
  std::unique_ptr<docket::InboxStore> store = docket::open_inbox_store(url);

  int handler_runs = 0;
  std::int64_t committed_cents = -1;
  docket::HandlerRegistry handlers;
  handlers.on<consumer::Deposit>(
      "deposit", [&](const consumer::Deposit& deposit, docket::sqlite::Transaction& tx,
                     docket::HandlerContext&) {
        ++handler_runs;
        tx.exec("CREATE TABLE IF NOT EXISTS deposits (account TEXT NOT NULL, cents INTEGER)");
        tx.exec("INSERT INTO deposits (account, cents) VALUES (?, ?)",
                {std::string_view(deposit.account), deposit.cents});
      });
  // Reads back, in a later unit of work, what the deposit's handler committed.
  handlers.on<consumer::Deposit>(
      "audit", [&](const consumer::Deposit& deposit, docket::sqlite::Transaction& tx,
                   docket::HandlerContext&) {
        const auto rows = tx.query("SELECT SUM(cents) FROM deposits WHERE account = ?",
                                   {std::string_view(deposit.account)});
        committed_cents = std::get<std::int64_t>(rows.at(0).at(0));
      });
  const docket::InboxDispatcher dispatcher(*store, docket::InboxOptions("consumer"),
                                           std::move(handlers));

  const std::string payload = nlohmann::json(consumer::Deposit{"acme", 1250}).dump();
  const docket::Envelope deposit{
      .message_id = "deposit-1", .event_type = "deposit", .payload = payload};
  const docket::DispatchOutcome first = dispatcher.dispatch(deposit);
  const docket::DispatchOutcome again = dispatcher.dispatch(deposit);
  dispatcher.dispatch({.message_id = "audit-1", .event_type = "audit", .payload = payload});

  const bool ok =
      check(first == docket::DispatchOutcome::kProcessed, "the first delivery processed") &
      check(again == docket::DispatchOutcome::kSkippedDuplicate,
            "the redelivery skipped as a duplicate") &
      check(handler_runs == 1,
            "the deposit handler to run once, not " + std::to_string(handler_runs) + " times") &
      check(committed_cents == 1250,
            "1250 cents committed, not " + std::to_string(committed_cents));
  if (ok) {
    std::cout << "consumer: " << url << ": processed once, redelivery skipped, 1250 committed\n";
  }
  return ok ? 0 : 1;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const std::exception& e) {
    std::cerr << "consumer: " << e.what() << '\n';
    return 1;
  }
}
