#include "cosmos_claim_bench.h"

#include <limits>

#include "cosmos_claim_effect.h"
#include "cosmos_raw_claim.h"
#include "cosmos_raw_rest.h"
#include "providers/cosmos/cosmos_claim_inbox_store.h"
#include "providers/cosmos/cosmos_claim_item.h"
#include "providers/cosmos/cosmos_items.h"

namespace docket::bench {

std::unique_ptr<ClaimInboxStore> CosmosClaimBench::open_docket_store(const std::string& db,
                                                                     std::size_t) const {
  return std::make_unique<cosmos::detail::CosmosClaimInboxStore>(db, SystemClock::instance());
}

void CosmosClaimBench::prepare(const BenchStore& store) const {
  cosmos::detail::CosmosClaimInboxStore(store.raw_db, SystemClock::instance()).migrate();
  for (const std::string& db : {store.docket_db, store.raw_db}) {
    ensure_cosmos_claim_effects(db);
  }
}

std::unique_ptr<ClaimEffectWriter> CosmosClaimBench::effect_writer(const std::string& db,
                                                                   std::string_view run_id) const {
  return std::make_unique<ClaimEffectCosmos>(db, run_id);
}

ClaimRows CosmosClaimBench::count_rows(const std::string& db, std::string_view handler_type) const {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(db),
                                      cosmos_check_client_options());
  const std::vector<nlohmann::json> statuses = cosmos::detail::query_items(
      client,
      {.container = client.url().container(cosmos::detail::claim::kContainer),
       .sql = "SELECT VALUE c.status FROM c WHERE c.handlerType = @handler",
       .parameters = {{{"name", "@handler"}, {"value", handler_type}}}},
      std::numeric_limits<std::size_t>::max());
  ClaimRows rows;
  for (const nlohmann::json& status : statuses) {
    ++rows.entries;
    rows.processed += status == "processed" ? 1 : 0;
  }
  count_cosmos_claim_effects(db, handler_type, rows);
  return rows;
}

std::unique_ptr<ClaimSession> CosmosClaimBench::raw_session(const std::string& raw_db,
                                                            std::string_view handler_type,
                                                            std::string_view owner) const {
  return std::make_unique<RawClaimCosmos>(raw_db, handler_type, owner);
}

}  // namespace docket::bench
