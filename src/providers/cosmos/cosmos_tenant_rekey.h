// The tenant re-key on Cosmos DB (docket/stores/tenant_rekey.h): the kit's procedure
// (kit/tenant_rekey_procedure.h) over the event and saga containers of a URL.
//
//   legacy records   a query of each container, every partition, for the items whose key
//                    (an event's streamId, a saga's id) lies outside ["t:", "t;"), the
//                    guard's range (cosmos_legacy_guard.h), read whole and paged to its
//                    end, each confirmed by keys::is_legacy_untenanted_*_key
//   own tenant       the `tenant` field of a legacy item, where the release that wrote it
//                    kept one (the procedure refuses a record naming another tenant)
//   own terms        an event's aggregateType and aggregateId fields, a saga's sagaId
//                    field, where present, decide (and must agree with) the key's split
//   known tenant     a query of each container for a key in the tenant's range
//   new items        the legacy item (its system properties dropped) with its key and
//                    its readable terms (tenant, aggregateType and aggregateId; tenant,
//                    sagaId and listKey) as the current stores write them: nothing else
//                    changes, so an event keeps its id (its version)
//   marker           cosmos_tenant_rekey_marker.h, written before the first move and
//                    removed after the verification
//
// The writes. A saga's new id stays in its type's partition, so its move is ONE
// transactional batch: a Create of the new item (refused, 409, where the id is taken)
// and a Delete of the legacy one under the etag it was read with (412 where it changed,
// 404 where it went). An event's new stream key is another partition than its legacy
// one, and a transactional batch holds one partition, so the move of a stream's events
// is TWO batches: the Creates in the new partition, then the Deletes (under their etags)
// in the legacy one. A run killed (or a delete refused) between the two leaves the new
// items written and the legacy ones in place, under the marker, so every store keeps
// refusing; the next run finds each new key holding the same content and only deletes
// (kit::TenantRekeyTarget::commit says what a false answer may leave). Each batch holds at
// most kMovesPerBatch moves and kMaxBatchBytes.
//
// Thread-safety: a target is used by one thread (kit/tenant_rekey_target.h).
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_TENANT_REKEY_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_TENANT_REKEY_H_

#include <cstddef>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/stores/tenant_rekey.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/kit/tenant_rekey_target.h"

namespace docket::cosmos::detail {

// A saga's move is two operations of one batch, which holds 100.
inline constexpr std::size_t kMovesPerBatch = 50;

class CosmosRekeyTarget final : public kit::TenantRekeyTarget {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses; sends nothing.
  explicit CosmosRekeyTarget(std::string_view url);

  keys::Provider key_shape() const override { return keys::Provider::kCosmosDb; }
  std::string where(kit::RekeyKind kind) const override;
  bool holds_tenant(const TenantId& tenant) const override;
  std::vector<kit::LegacyRecord> legacy_records(kit::RekeyKind kind) const override;
  kit::RekeyMove event_move(const kit::LegacyRecord& record, const StreamId& stream) const override;
  kit::RekeyMove saga_move(const kit::LegacyRecord& record, const SagaId& saga) const override;
  std::size_t moves_per_write() const override { return kMovesPerBatch; }
  std::size_t weight_per_write() const override;
  bool commit(std::span<const kit::RekeyMove* const> moves,
              std::span<const kit::RekeyMove* const> deletes) const override;
  std::optional<nlohmann::json> read_new(const kit::RekeyMove& move) const override;
  std::string marker_where() const override;
  std::optional<kit::RekeyMarker> read_marker() const override;
  void write_marker(const kit::RekeyMarker& marker) const override;
  void remove_marker() const override;
  std::vector<StreamId> tenant_streams(const TenantId& tenant) const override;
  std::vector<SagaId> tenant_sagas(const TenantId& tenant) const override;
  std::unique_ptr<EventStore> verifying_event_store() const override;
  std::unique_ptr<SagaStore> verifying_saga_store() const override;

  // The two batches of an event commit, in order (public so that a test can stop a run
  // between them, as a kill would). create_new: one batch of Creates of `moves`' new
  // items in their (one) new partition; false when a new id is taken, nothing written.
  // delete_old: one batch of Deletes of the legacy items of `moves` and `deletes` in
  // their (one) legacy partition, each under its etag; false when one changed or went,
  // nothing deleted.
  bool create_new(std::span<const kit::RekeyMove* const> moves) const;
  bool delete_old(std::span<const kit::RekeyMove* const> moves,
                  std::span<const kit::RekeyMove* const> deletes) const;

 private:
  // `item` without the system properties the service adds (_rid, _etag, ...): what
  // docket wrote, comparable with a new item.
  static nlohmann::json written_content(nlohmann::json item);
  const std::string& container(kit::RekeyKind kind) const;
  bool container_exists(kit::RekeyKind kind) const;
  // Up to `limit` keys of the container in [from, until) (0: every one).
  std::vector<std::string> keys_in(kit::RekeyKind kind, const std::string& from,
                                   const std::string& until, std::size_t limit) const;
  kit::LegacyRecord legacy_record(kit::RekeyKind kind, nlohmann::json item) const;
  bool commit_saga(std::span<const kit::RekeyMove* const> moves,
                   std::span<const kit::RekeyMove* const> deletes) const;
  // Sends one batch in `partition` of the kind's container: false for a failure that
  // means a condition (409, 412, 404), thrown otherwise.
  bool send(kit::RekeyKind kind, const std::string& partition, const nlohmann::json& operations,
            std::string_view what) const;

  std::string url_;
  Client client_;
  std::string events_;
  std::string sagas_;
};

// The provider's ProviderRegistration::rekey_tenant. Throws ConfigurationError for a
// URL parse_store_url refuses, and what the procedure throws.
TenantRekeyReport rekey_legacy_containers(std::string_view url, const TenantRekeyOptions& options);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_TENANT_REKEY_H_
