#include "providers/firestore/firestore_legacy_guard.h"

#include <utility>
#include <vector>

#include "docket/keys/legacy.h"
#include "docket/keys/provider.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_inbox_migration.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_saga_document.h"

namespace docket::firestore::detail {
namespace {

// Every event and saga document id docket composes for Firestore begins with the
// tenant segment "t:"; ids from "t;" (';' follows ':') on are past every such id.
constexpr std::string_view kTenantedFrom = "t:";
constexpr std::string_view kTenantedUntil = "t;";
constexpr std::string_view kName = "__name__";
// Documents a scan reads a page.
constexpr std::size_t kScanPageDocuments = 300;

kit::LegacyPlace collection_place(const std::string& collection, LegacyKeyKind kind) {
  return {.collection = collection,
          .where = "Firestore collection '" + collection + "'",
          .record = kind == LegacyKeyKind::kStream ? "event document" : "saga document",
          .records = "documents",
          .fresh = "prefix"};
}

}  // namespace

LegacyGuard::LegacyGuard(std::string collection, LegacyKeyKind kind)
    : collection_(std::move(collection)), kind_(kind), once_(collection_place(collection_, kind)) {}

void LegacyGuard::check(const Client& client) {
  once_.check([&] { return probe(client); });
}

nlohmann::json LegacyGuard::outside_filter(const Client& client) const {
  return {{"compositeFilter",
           {{"op", "OR"},
            {"filters",
             {field_filter(kName, "LESS_THAN", reference_value(client, collection_, kTenantedFrom)),
              field_filter(kName, "GREATER_THAN_OR_EQUAL",
                           reference_value(client, collection_, kTenantedUntil))}}}}};
}

bool LegacyGuard::is_legacy(std::string_view id) const {
  return kind_ == LegacyKeyKind::kStream
             ? keys::is_legacy_untenanted_stream_key(keys::Provider::kFirestore, id)
             : keys::is_legacy_untenanted_saga_key(keys::Provider::kFirestore, id);
}

std::optional<std::string> LegacyGuard::probe(const Client& client) const {
  const std::vector<Document> found =
      run_query(client, {.collection = collection_, .where = outside_filter(client), .limit = 1});
  for (const Document& document : found) {
    if (is_legacy(document.id)) {
      return document.id;
    }
  }
  return std::nullopt;
}

LegacyKeyPlace LegacyGuard::scan(const Client& client, std::size_t max_examples) const {
  const bool any = !run_query(client, {.collection = collection_, .limit = 1}).empty();
  LegacyKeyPlace place = kit::legacy_scan_place(once_.place(), any);
  if (!any) {
    return place;
  }
  kit::LegacyKeyTally tally(place, max_examples);
  query_pages(client, {.collection = collection_, .where = outside_filter(client)},
              kScanPageDocuments, [&](std::vector<Document>& page) {
                for (const Document& document : page) {
                  if (is_legacy(document.id)) {
                    tally.add(document.id, kind_ == LegacyKeyKind::kStream
                                               ? legacy_stream_of(document.id)
                                               : std::string_view(document.id));
                  }
                }
                return true;
              });
  return place;
}

std::string_view legacy_stream_of(std::string_view id) {
  const std::size_t colon = id.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == id.size() ||
      id.find_first_not_of("0123456789", colon + 1) != std::string_view::npos) {
    return id;
  }
  return id.substr(0, colon);
}

LegacyScan scan_legacy_collections(std::string_view url, std::size_t max_examples) {
  const Client client(parse_store_url(url));
  const LegacyGuard streams(client.url().collection(event::kCollection), LegacyKeyKind::kStream);
  const LegacyGuard sagas(client.url().collection(saga::kCollection), LegacyKeyKind::kSaga);
  LegacyScan scan{.provider = "firestore",
                  .places = {streams.scan(client, max_examples), sagas.scan(client, max_examples)}};
  for (const std::string& collection : inbox_collections(client)) {
    scan.places.push_back(scan_legacy_inbox_ids(client, collection, max_examples));
  }
  return scan;
}

}  // namespace docket::firestore::detail
