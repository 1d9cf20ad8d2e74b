#include "providers/cosmos/cosmos_legacy_guard.h"

#include <utility>
#include <vector>

#include "docket/keys/legacy.h"
#include "docket/keys/provider.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_saga_item.h"

namespace docket::cosmos::detail {
namespace {

// Every stream key and saga id docket composes for Cosmos DB begins with the tenant
// segment "t:"; keys from "t;" (';' follows ':') on are past every such key.
constexpr std::string_view kTenantedFrom = "t:";
constexpr std::string_view kTenantedUntil = "t;";
// Keys a scan reads a page.
constexpr std::size_t kScanPageItems = 1000;

kit::LegacyPlace container_place(const std::string& container, LegacyKeyKind kind) {
  return {.collection = container,
          .where = "Cosmos DB container '" + container + "'",
          .record = kind == LegacyKeyKind::kStream ? "event item" : "saga item",
          .records = "items",
          .fresh = "prefix"};
}

}  // namespace

LegacyGuard::LegacyGuard(std::string container, LegacyKeyKind kind)
    : container_(std::move(container)), kind_(kind), once_(container_place(container_, kind)) {}

void LegacyGuard::check(const Client& client) {
  once_.check([&] { return probe(client); });
}

Query LegacyGuard::outside_query() const {
  const std::string field =
      kind_ == LegacyKeyKind::kStream ? std::string(event::kStreamField) : std::string("id");
  return {.container = container_,
          .sql = "SELECT VALUE c." + field + " FROM c WHERE c." + field + " < @from OR c." + field +
                 " >= @until",
          .parameters = {{{"name", "@from"}, {"value", kTenantedFrom}},
                         {{"name", "@until"}, {"value", kTenantedUntil}}}};
}

bool LegacyGuard::is_legacy(std::string_view key) const {
  return kind_ == LegacyKeyKind::kStream
             ? keys::is_legacy_untenanted_stream_key(keys::Provider::kCosmosDb, key)
             : keys::is_legacy_untenanted_saga_key(keys::Provider::kCosmosDb, key);
}

std::optional<std::string> LegacyGuard::probe(const Client& client) const {
  for (const nlohmann::json& key : query_items(client, outside_query(), 1)) {
    if (key.is_string() && is_legacy(key.get_ref<const std::string&>())) {
      return key.get<std::string>();
    }
  }
  return std::nullopt;
}

LegacyKeyPlace LegacyGuard::scan(const Client& client, std::size_t max_examples) const {
  // A read of the container itself: 404 when it was never made (nothing to scan).
  const std::string link = client.container_link(container_);
  const std::string what = "read of container '" + container_ + "'";
  const Request read{.what = what,
                     .method = "GET",
                     .resource_type = "colls",
                     .resource_link = link,
                     .path = "/" + link,
                     .replay = Replay::kSafe};
  const Response response = client.send(read);
  if (response.status == 404) {
    return kit::legacy_scan_place(once_.place(), false);
  }
  if (response.status != 200) {
    client.fail(read, response);
  }
  const bool any =
      !query_items(client, {.container = container_, .sql = "SELECT VALUE c.id FROM c"}, 1).empty();
  LegacyKeyPlace place = kit::legacy_scan_place(once_.place(), any);
  kit::LegacyKeyTally tally(place, max_examples);
  const Query query = outside_query();
  std::string continuation;
  do {
    QueryPage page = query_page(client, query, kScanPageItems, continuation);
    for (const nlohmann::json& key : page.items) {
      if (key.is_string() && is_legacy(key.get_ref<const std::string&>())) {
        // An event item per event: a stream is named once (its key is its group).
        tally.add(key.get_ref<const std::string&>(), key.get_ref<const std::string&>());
      }
    }
    continuation = std::move(page.continuation);
  } while (!continuation.empty());
  return place;
}

LegacyScan scan_legacy_containers(std::string_view url, std::size_t max_examples) {
  const Client client(parse_store_url(url));
  const LegacyGuard streams(client.url().container(event::kContainer), LegacyKeyKind::kStream);
  const LegacyGuard sagas(client.url().container(saga::kContainer), LegacyKeyKind::kSaga);
  return LegacyScan{
      .provider = "cosmos",
      .places = {streams.scan(client, max_examples), sagas.scan(client, max_examples)}};
}

}  // namespace docket::cosmos::detail
