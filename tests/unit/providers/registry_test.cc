// The provider registry: finding a provider by its URL scheme, the refusals of
// unknown schemes, of a provider's own URL problems and of stores a provider does not
// offer, the checks on registrations, printable URLs; and this build's registry.
#include "providers/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/sagas/saga_store.h"

namespace docket::providers {
namespace {

using ::testing::HasSubstr;

// What the fake factories were last asked to open.
std::string opened_url;

std::unique_ptr<InboxStore> fake_inbox(std::string_view url, const Clock&) {
  opened_url = std::string(url);
  return nullptr;
}

std::unique_ptr<EventStore> fake_events(std::string_view url, const Clock&) {
  opened_url = std::string(url);
  return nullptr;
}

std::optional<std::string> needs_a_name(std::string_view url) {
  if (url.ends_with(":")) {
    return "names no vault";
  }
  return std::nullopt;
}

std::string masked(std::string_view) {
  return "vault:***";
}

constexpr std::array<std::string_view, 2> kVaultSchemes = {"vault", "vlt"};
constexpr std::array<std::string_view, 1> kTapeSchemes = {"tape"};

const ProviderRegistration kVault{.name = "vault",
                                  .schemes = kVaultSchemes,
                                  .url_forms = "vault://host/name",
                                  .url_problem = needs_a_name,
                                  .printable_url = masked,
                                  .inbox = fake_inbox};
const ProviderRegistration kTape{.name = "tape",
                                 .schemes = kTapeSchemes,
                                 .url_forms = "tape:name",
                                 .key_shape = keys::Provider::kDynamoDb,
                                 .inbox = fake_inbox,
                                 .event = fake_events};

Registry two_providers() {
  return Registry({&kVault, &kTape}, {{"cloud", "DOCKET_PROVIDER_CLOUD"}});
}

std::string refusal(const Registry& registry, std::string_view url) {
  try {
    registry.open<InboxStore>(url, SystemClock::instance());
  } catch (const ConfigurationError& e) {
    return e.what();
  }
  ADD_FAILURE() << "'" << url << "' was not refused";
  return {};
}

TEST(Registry, FindsTheProviderByItsScheme) {
  const Registry registry = two_providers();
  EXPECT_EQ(registry.find("vault://h/n"), &kVault);
  EXPECT_EQ(registry.find("vlt:x"), &kVault);
  EXPECT_EQ(registry.find("tape:reel"), &kTape);
  for (const char* url : {"vaults://h", "tap:x", "", ":x", "vault", "redis://h"}) {
    EXPECT_EQ(registry.find(url), nullptr) << url;
  }
}

TEST(Registry, OpensThroughTheProvidersFactoryWithTheWholeUrl) {
  const Registry registry = two_providers();
  registry.open<EventStore>("tape:reel-7", SystemClock::instance());
  EXPECT_EQ(opened_url, "tape:reel-7");
  registry.open<InboxStore>("vlt://h/n?x=1", SystemClock::instance());
  EXPECT_EQ(opened_url, "vlt://h/n?x=1");
}

TEST(Registry, AnUnknownSchemeListsThisBuildsUrlsAndWhatItLeavesOut) {
  const Registry registry = two_providers();
  for (const char* url : {"redis://h", "memory", ""}) {
    const std::string message = refusal(registry, url);
    EXPECT_THAT(message, HasSubstr("inbox store URL '" + std::string(url) + "'"));
    EXPECT_THAT(message, HasSubstr("use one of: vault://host/name, tape:name"));
    EXPECT_THAT(message, HasSubstr("cloud is left out of this build: configure with "
                                   "-DDOCKET_PROVIDER_CLOUD=ON"));
  }
}

TEST(Registry, AProvidersOwnUrlProblemIsRefusedTheSameWay) {
  const std::string message = refusal(two_providers(), "vault:");
  EXPECT_THAT(message, HasSubstr("inbox store URL 'vault:***' names no vault"));
  EXPECT_THAT(message, HasSubstr("use one of: vault://host/name, tape:name"));
}

TEST(Registry, AStoreTheProviderDoesNotOfferNamesTheProvidersThatDo) {
  try {
    two_providers().open<EventStore>("vault://h/n", SystemClock::instance());
    FAIL() << "the vault provider offers no event store";
  } catch (const ConfigurationError& e) {
    const std::string message = e.what();
    EXPECT_THAT(message, HasSubstr("event store URL 'vault:***'"));
    EXPECT_THAT(message, HasSubstr("the vault provider offers no event store"));
    EXPECT_THAT(message, HasSubstr("open it on a provider that does: tape:name"));
  }
}

TEST(Registry, AStoreNoProviderOffersSaysSo) {
  try {
    two_providers().open<SagaStore>("tape:x", SystemClock::instance());
    FAIL() << "no provider offers a saga store";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("the tape provider offers no saga store; no provider of "
                                    "this build offers one yet"));
  }
}

TEST(Registry, RegistrationsMustNotShareANameOrAScheme) {
  const ProviderRegistration other_vault{.name = "vault", .schemes = kTapeSchemes};
  EXPECT_THROW(Registry({&kVault, &other_vault}), ConfigurationError);
  const ProviderRegistration other_tape{.name = "cassette", .schemes = kTapeSchemes};
  EXPECT_THROW(Registry({&kTape, &other_tape}), ConfigurationError);
  const ProviderRegistration nameless{.name = "", .schemes = kTapeSchemes};
  EXPECT_THROW(Registry({&nameless}), ConfigurationError);
  const ProviderRegistration schemeless{.name = "none"};
  EXPECT_THROW(Registry({&schemeless}), ConfigurationError);
}

TEST(Registry, PrintableUrlsUseTheProvidersFormAndMaskUnknownSchemes) {
  const Registry registry = two_providers();
  EXPECT_EQ(registry.printable("vault://u:p@h/n"), "vault:***");
  EXPECT_EQ(registry.printable("tape:u:p@x"), "tape:u:p@x");  // tape URLs carry none
  EXPECT_EQ(registry.printable("cloud://user:s3cret@host/db?password=x"),
            "cloud://user:***@host/db?password=***");
}

// This build's registry: one registration per storage provider, in
// builtin_providers.cmake's order, memory first, each offering at least one store.
// Which stores a provider offers is its registration's to say; that each offered store
// passes its SPI's suite is checked by the suites themselves (SuiteCoverage, in each
// conformance binary). A provider that composes keys names a shape of its own.
TEST(BuiltinRegistry, ListsTheStorageProvidersOfThisBuildMemoryFirst) {
  const Registry& registry = Registry::builtin();
  ASSERT_FALSE(registry.providers().empty());
  EXPECT_EQ(registry.providers().front()->name, "memory");
  EXPECT_EQ(registry.find("memory:"), registry.providers().front());
  EXPECT_TRUE(registry.url_forms().starts_with("memory:")) << registry.url_forms();
  std::vector<keys::Provider> shapes;
  for (const ProviderRegistration* provider : registry.providers()) {
    const bool offers_a_store = provider->inbox || provider->checkpoint || provider->outbox ||
                                provider->event || provider->snapshot || provider->saga ||
                                provider->claim_inbox;
    EXPECT_TRUE(offers_a_store) << provider->name << " offers no store";
    if (provider->key_shape) {
      EXPECT_EQ(std::count(shapes.begin(), shapes.end(), *provider->key_shape), 0)
          << provider->name << " shares its key shape with another provider";
      shapes.push_back(*provider->key_shape);
    }
  }
}

}  // namespace
}  // namespace docket::providers
