// How the conformance suite drives one provider: open a fresh store, write an "effect
// row" natively from a handler, count committed rows natively. Everything else in the
// suite goes through the SPI, unchanged for every provider.
#ifndef DOCKET_TESTS_CONFORMANCE_PROVIDER_FIXTURE_H_
#define DOCKET_TESTS_CONFORMANCE_PROVIDER_FIXTURE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_store.h"

namespace docket::conformance {

// The table handlers write their effects to.
inline constexpr std::string_view kEffectsTable = "effects";

struct Ping;  // the suite's event (suite.h)
// The effect row's id a handler writes for a message.
using EffectId = std::function<std::string(const Ping&, HandlerContext&)>;

class ProviderFixture {
 public:
  virtual ~ProviderFixture() = default;

  // A store on a fresh, empty database where kEffectsTable exists (unique key `id`).
  // Called once per fixture; the database lives as long as the fixture.
  virtual std::unique_ptr<InboxStore> open(const Clock& clock) = 0;

  // A URL that another process can open onto the database open() created, or nullopt
  // when the store is process-local.
  virtual std::optional<std::string> shared_url() const = 0;

  // Registers for kPingType a handler written against this provider's transaction (its
  // second parameter, as users write them) that inserts the row effect_id(event, ctx)
  // into kEffectsTable through it; a second insert of one id is a unique violation.
  virtual void on_ping(HandlerRegistry& handlers, EffectId effect_id) = 0;

  // Committed rows of `table`, read natively.
  virtual std::int64_t count_rows(InboxStore& store, std::string_view table) = 0;
};

// One case of the suite, registered by its provider's fixture file
// (src/providers/<name>/conformance/<name>_inbox_fixture.cc) with a FixtureRegistrar.
struct ProviderCase {
  std::string name;      // the test-name suffix: "sqlite_file"
  std::string provider;  // what its stores' provider_name() returns: "sqlite"
  std::function<std::unique_ptr<ProviderFixture>()> make;
  // A registry with one kPingType handler written against the provider's transaction,
  // doing nothing (noop_ping_handlers<Tx> in suite.h): what a dispatcher over another
  // provider's store must refuse.
  HandlerRegistry (*typed_handlers)() = nullptr;
  // Other processes can open the fixture's database (shared_url() is set).
  bool multi_process = false;
};

// Test output names the provider instead of dumping the struct's bytes.
void PrintTo(const ProviderCase& provider, std::ostream* os);

// Every case the build's fixtures registered, and those whose stores other processes
// can share.
std::vector<ProviderCase> all_providers();
std::vector<ProviderCase> multi_process_providers();

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_PROVIDER_FIXTURE_H_
