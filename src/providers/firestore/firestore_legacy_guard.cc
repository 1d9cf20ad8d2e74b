#include "providers/firestore/firestore_legacy_guard.h"

#include <utility>
#include <vector>

#include "docket/keys/legacy.h"
#include "docket/keys/provider.h"
#include "providers/firestore/firestore_query.h"

namespace docket::firestore {
namespace {

// Every event and saga document id docket composes for Firestore begins with the
// tenant segment "t:"; ids from "t;" (';' follows ':') on are past every such id.
constexpr std::string_view kTenantedFrom = "t:";
constexpr std::string_view kTenantedUntil = "t;";
constexpr std::string_view kName = "__name__";

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

std::optional<std::string> LegacyGuard::probe(const Client& client) const {
  const nlohmann::json outside = {
      {"compositeFilter",
       {{"op", "OR"},
        {"filters",
         {field_filter(kName, "LESS_THAN", reference_value(client, collection_, kTenantedFrom)),
          field_filter(kName, "GREATER_THAN_OR_EQUAL",
                       reference_value(client, collection_, kTenantedUntil))}}}}};
  const std::vector<Document> found =
      run_query(client, {.collection = collection_, .where = outside, .limit = 1});
  for (const Document& document : found) {
    const bool legacy =
        kind_ == LegacyKeyKind::kStream
            ? keys::is_legacy_untenanted_stream_key(keys::Provider::kFirestore, document.id)
            : keys::is_legacy_untenanted_saga_key(keys::Provider::kFirestore, document.id);
    if (legacy) {
      return document.id;
    }
  }
  return std::nullopt;
}

}  // namespace docket::firestore
