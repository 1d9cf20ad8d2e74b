// The provider registry: the storage providers of this build, one registration each,
// and the one place that turns a store URL into a store. docket::stores' URL
// factories (docket/stores/open_store.h) and printable_store_url() go through it.
//
// A provider is its folder, src/providers/<name>/, and one registration: a
// ProviderRegistration defined in that folder (<name>_registration.cc) as
//
//   const docket::providers::ProviderRegistration& docket::<name>::registration();
//
// and listed by one line in src/providers/builtin_providers.cmake, which also names
// the CMake option that builds it. Nothing else names the provider (docs/providers.md).
//
// Storage providers and key shapes: keys::Provider (docket/keys/provider.h) lists the
// key shapes src/keys composes, MongoDB and Elasticsearch among them, which have
// shapes and offline tools but no store. This registry is the one list of storage
// providers. A provider whose stores compose keys names the shape they use in
// `key_shape` (and composes through providers/kit/key_bridge.h); the relational ones
// (memory, SQLite, PostgreSQL) key rows by columns and name none.
//
// Thread-safety: registrations are immutable; a Registry is immutable after
// construction and may be used from many threads; the factories are as thread-safe
// as the stores they open.
#ifndef DOCKET_PROVIDERS_REGISTRY_H_
#define DOCKET_PROVIDERS_REGISTRY_H_

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/keys/provider.h"
#include "docket/stores/inbox_id_migration.h"
#include "docket/stores/legacy_scan.h"
#include "docket/stores/tenant_rekey.h"

namespace docket {

class CheckpointStore;
class ClaimInboxStore;
class Clock;
class EventStore;
class InboxStore;
class OutboxStore;
class SagaStore;
class SnapshotStore;

}  // namespace docket

namespace docket::providers {

// Opens one store on the database `url` names; `url` has passed the provider's
// url_problem. `clock` must outlive the store.
template <class Store>
using StoreFactory = std::unique_ptr<Store> (*)(std::string_view url, const Clock& clock);

struct ProviderRegistration {
  // The provider's name: its folder, its namespace and InboxStore::provider_name().
  std::string_view name{};
  // The URL schemes it owns: the text before a URL's first ':' ("sqlite";
  // "postgresql" and "postgres"). No two providers share one.
  std::span<const std::string_view> schemes{};
  // How its URLs look, for messages: "sqlite:///path/to/file.db, sqlite::memory:".
  std::string_view url_forms{};
  // The key shape its stores compose (src/keys); nullopt for providers keyed by columns.
  std::optional<keys::Provider> key_shape{};
  // Its stores live in the process and die with it: nothing durable to measure or
  // share between processes.
  bool process_local = false;
  // Why `url` (one of its schemes) names no database of this provider, e.g. "names no
  // SQLite database"; nullopt when it does. nullptr: every URL of its schemes does.
  std::optional<std::string> (*url_problem)(std::string_view url) = nullptr;
  // `url` with its credentials masked (docket/stores/printable_store_url.h); nullptr: its URLs
  // carry none, and any password written into one by mistake (user info, a `password=`
  // parameter) is masked as core/url_credentials.h does.
  std::string (*printable_url)(std::string_view url) = nullptr;
  // What an acknowledged commit survives on the server `url` names, read from that
  // server, in one sentence (Redis: its appendonly and appendfsync settings); nullptr:
  // nothing to read, its documentation states it. Throws what opening a store throws.
  std::string (*durability)(std::string_view url) = nullptr;

  // The stores it offers, each opened on its own; nullptr: not offered. Stores opened
  // on one URL share its database as docket/stores/open_store.h describes (memory: is
  // a database of its own per store).
  StoreFactory<InboxStore> inbox = nullptr;
  StoreFactory<CheckpointStore> checkpoint = nullptr;
  StoreFactory<OutboxStore> outbox = nullptr;
  StoreFactory<EventStore> event = nullptr;
  StoreFactory<SnapshotStore> snapshot = nullptr;
  StoreFactory<SagaStore> saga = nullptr;
  StoreFactory<ClaimInboxStore> claim_inbox = nullptr;
  // Every key of its tables or collections under a shape docket no longer writes
  // (docket/stores/legacy_scan.h); nullptr: it keys records by columns and holds none.
  LegacyScan (*legacy_scan)(std::string_view url, std::size_t max_examples) = nullptr;
  // Re-keys its inbox entries stored under the legacy '_'-joined id
  // (docket/stores/inbox_id_migration.h); nullptr: it never stored any.
  InboxIdMigration (*migrate_inbox_ids)(std::string_view url,
                                        const InboxIdMigrationOptions& options) = nullptr;
  // Re-keys its legacy untenanted event and saga records under a tenant
  // (docket/stores/tenant_rekey.h): writes the re-key's marker first, moves, verifies
  // through stores opened without the marker's check, and removes the marker last
  // (providers/kit/tenant_rekey_procedure.h); nullptr: it never stored any.
  TenantRekeyReport (*rekey_tenant)(std::string_view url,
                                    const TenantRekeyOptions& options) = nullptr;
};

// A provider this build leaves out, and the CMake option that would build it.
struct LeftOutProvider {
  std::string_view name{};
  std::string_view option;  // "DOCKET_PROVIDER_POSTGRES"
};

// Each store kind's slot in a registration, and its name in messages.
template <class Store>
struct StoreSlot;

class Registry {
 public:
  // Throws ConfigurationError when two registrations share a name or a scheme, or a
  // registration has no name or no scheme.
  explicit Registry(std::vector<const ProviderRegistration*> providers,
                    std::vector<LeftOutProvider> left_out = {});

  // This build's providers, in builtin_providers.cmake's order.
  static const Registry& builtin();

  std::span<const ProviderRegistration* const> providers() const noexcept { return providers_; }

  // The provider owning the scheme of `url`, or nullptr.
  const ProviderRegistration* find(std::string_view url) const noexcept;

  // The provider of `url`, which will open a `what` ("inbox store", ...). Throws
  // ConfigurationError naming `what` and the URL (credentials masked) when its scheme
  // is no provider's of this build, or its provider finds a problem in it, listing the
  // URL forms of this build and the providers it leaves out.
  const ProviderRegistration& provider_for(std::string_view url, std::string_view what) const;

  // Opens a `Store` on `url`: the refusals of provider_for, and a ConfigurationError
  // naming the provider, the store and the providers that offer it when the URL's
  // provider does not.
  template <class Store>
  std::unique_ptr<Store> open(std::string_view url, const Clock& clock) const {
    using Slot = StoreSlot<Store>;
    const ProviderRegistration& provider = provider_for(url, Slot::kName);
    const StoreFactory<Store> factory = provider.*Slot::kFactory;
    if (factory == nullptr) {
      refuse_missing_store(provider, url, Slot::kName, [](const ProviderRegistration& other) {
        return other.*Slot::kFactory != nullptr;
      });
    }
    return factory(url, clock);
  }

  // `url` fit for printing: its provider's printable form, or, for a provider without
  // one or a scheme this build has no provider for, every password a URL can carry
  // masked.
  std::string printable(std::string_view url) const;

  // The URL forms of every provider, in order, joined with ", ".
  std::string url_forms() const;

 private:
  [[noreturn]] void refuse_missing_store(const ProviderRegistration& provider, std::string_view url,
                                         std::string_view what,
                                         bool (*offers)(const ProviderRegistration&)) const;

  std::vector<const ProviderRegistration*> providers_;
  std::vector<LeftOutProvider> left_out_;
};

template <>
struct StoreSlot<InboxStore> {
  static constexpr std::string_view kName = "inbox store";
  static constexpr auto kFactory = &ProviderRegistration::inbox;
};
template <>
struct StoreSlot<CheckpointStore> {
  static constexpr std::string_view kName = "checkpoint store";
  static constexpr auto kFactory = &ProviderRegistration::checkpoint;
};
template <>
struct StoreSlot<OutboxStore> {
  static constexpr std::string_view kName = "outbox store";
  static constexpr auto kFactory = &ProviderRegistration::outbox;
};
template <>
struct StoreSlot<EventStore> {
  static constexpr std::string_view kName = "event store";
  static constexpr auto kFactory = &ProviderRegistration::event;
};
template <>
struct StoreSlot<SnapshotStore> {
  static constexpr std::string_view kName = "snapshot store";
  static constexpr auto kFactory = &ProviderRegistration::snapshot;
};
template <>
struct StoreSlot<SagaStore> {
  static constexpr std::string_view kName = "saga store";
  static constexpr auto kFactory = &ProviderRegistration::saga;
};
template <>
struct StoreSlot<ClaimInboxStore> {
  static constexpr std::string_view kName = "claim inbox store";
  static constexpr auto kFactory = &ProviderRegistration::claim_inbox;
};

}  // namespace docket::providers

#endif  // DOCKET_PROVIDERS_REGISTRY_H_
