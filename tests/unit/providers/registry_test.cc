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

#include "docket/claim_inbox_store.h"
#include "docket/clock.h"
#include "docket/error.h"
#include "docket/event_store.h"
#include "docket/inbox_store.h"
#include "docket/saga_store.h"

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
// builtin_providers.cmake's order, memory first. A provider offers the stores it
// implements, which need not be all: what each offers is stated here, and a store it
// does not offer is refused on its URLs, naming it. The relational providers key rows
// by columns and name no key shape; a document provider names the one its stores
// compose.
namespace registry_test {

struct Offered {
  std::string_view name;
  std::optional<keys::Provider> key_shape;
  bool inbox, checkpoint, outbox, event, snapshot, saga, claim_inbox;
};

constexpr std::array<Offered, 5> kOffered = {{
    {"memory", std::nullopt, true, true, true, true, true, true, true},
    {"sqlite", std::nullopt, true, true, true, true, true, true, true},
    {"postgres", std::nullopt, true, true, true, true, true, true, true},
    {"dynamodb", keys::Provider::kDynamoDb, false, true, false, true, true, false, true},
    {"firestore", keys::Provider::kFirestore, false, true, false, false, true, false, true},
}};

void expect_offers(const ProviderRegistration& provider, const Offered& offered) {
  EXPECT_EQ(provider.key_shape, offered.key_shape) << provider.name;
  EXPECT_EQ(provider.inbox != nullptr, offered.inbox) << provider.name;
  EXPECT_EQ(provider.checkpoint != nullptr, offered.checkpoint) << provider.name;
  EXPECT_EQ(provider.outbox != nullptr, offered.outbox) << provider.name;
  EXPECT_EQ(provider.event != nullptr, offered.event) << provider.name;
  EXPECT_EQ(provider.snapshot != nullptr, offered.snapshot) << provider.name;
  EXPECT_EQ(provider.saga != nullptr, offered.saga) << provider.name;
  EXPECT_EQ(provider.claim_inbox != nullptr, offered.claim_inbox) << provider.name;
}

}  // namespace registry_test

TEST(BuiltinRegistry, ListsTheStorageProvidersOfThisBuild) {
  using registry_test::kOffered;
  using registry_test::Offered;
  const Registry& registry = Registry::builtin();
  ASSERT_FALSE(registry.providers().empty());
  EXPECT_EQ(registry.providers().front()->name, "memory");
  EXPECT_EQ(registry.find("memory:"), registry.providers().front());
  std::size_t listed = 0;
  for (const ProviderRegistration* provider : registry.providers()) {
    const auto offered = std::find_if(kOffered.begin(), kOffered.end(),
                                      [&](const Offered& o) { return o.name == provider->name; });
    ASSERT_NE(offered, kOffered.end()) << provider->name << " is not in this test's list";
    ASSERT_GE(offered - kOffered.begin(), static_cast<std::ptrdiff_t>(listed))
        << provider->name << " is out of builtin_providers.cmake's order";
    listed = static_cast<std::size_t>(offered - kOffered.begin());
    registry_test::expect_offers(*provider, *offered);
  }
  EXPECT_TRUE(registry.url_forms().starts_with("memory:")) << registry.url_forms();
}

#if DOCKET_HAVE_DYNAMODB
// A store the DynamoDB provider does not offer is refused on its URLs before anything
// is sent, naming the provider and those that offer the store.
TEST(BuiltinRegistry, RefusesTheStoresTheDynamoDbProviderDoesNotOffer) {
  const Registry& registry = Registry::builtin();
  try {
    registry.open<InboxStore>("dynamodb://127.0.0.1:9?region=us-east-1", SystemClock::instance());
    FAIL() << "the dynamodb provider offers no inbox store";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("the dynamodb provider offers no inbox store"));
    EXPECT_THAT(e.what(), HasSubstr("open it on a provider that does: memory:"));
  }
}

TEST(BuiltinRegistry, ADynamoDbUrlsProblemIsRefusedWithoutEchoingAPassword) {
  try {
    Registry::builtin().open<ClaimInboxStore>("dynamodb://key:s3cret@127.0.0.1:9?region=us-east-1",
                                              SystemClock::instance());
    FAIL() << "a URL with user info was opened";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("carries user info"));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("s3cret")));
  }
}
#endif

}  // namespace
}  // namespace docket::providers
