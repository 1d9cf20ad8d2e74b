#include "firestore_claim_effect.h"

#include <set>
#include <span>
#include <vector>

#include "docket/core/uuid.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"

namespace docket::bench {
namespace {

constexpr std::string_view kClaimEffectRunId = "runId";
constexpr std::string_view kClaimEffectMessageId = "messageId";
constexpr std::size_t kClaimEffectCheckPage = 300;

// Requests the bench's effects make are counted by the bench, not the provider
// (claim_effect.h); nor are the checks'.
kit::http::JsonServiceOptions uncounted_client() {
  return {.http = {.request_count = nullptr}};
}

}  // namespace

std::string firestore_claim_effects_collection(const std::string& url) {
  return firestore::detail::parse_store_url(url).collection(kClaimEffectsTable);
}

void count_firestore_claim_effects(const std::string& url, std::string_view run_id,
                                   ClaimRows& rows) {
  const firestore::detail::Client client(firestore::detail::parse_store_url(url),
                                         uncounted_client());
  std::set<std::string> messages;
  firestore::detail::query_pages(
      client,
      {.collection = firestore_claim_effects_collection(url),
       .where = firestore::detail::field_filter(kClaimEffectRunId, "EQUAL",
                                                firestore::detail::string_value(run_id))},
      kClaimEffectCheckPage, [&](std::vector<firestore::detail::Document>& page) {
        for (const firestore::detail::Document& document : page) {
          ++rows.effects;
          messages.insert(
              firestore::detail::FieldReader(document.fields, "Firestore claim bench effect")
                  .string(kClaimEffectMessageId));
        }
        return true;
      });
  rows.effect_messages = static_cast<std::int64_t>(messages.size());
}

ClaimEffectFirestore::ClaimEffectFirestore(const std::string& url, std::string_view run_id)
    : client_(firestore::detail::parse_store_url(url), uncounted_client()),
      collection_(firestore_claim_effects_collection(url)),
      run_id_(run_id) {}

void ClaimEffectFirestore::write(std::string_view message_id) {
  const firestore::detail::Write write{
      .collection = collection_,
      .id = Uuid::v7().to_string(),
      .fields = nlohmann::json{{kClaimEffectRunId, firestore::detail::string_value(run_id_)},
                               {kClaimEffectMessageId, firestore::detail::string_value(message_id)},
                               {"body", firestore::detail::string_value(kClaimEffectBody)}},
      .precondition = {}};
  firestore::detail::commit(client_, std::span<const firestore::detail::Write>(&write, 1),
                            collection_);
}

}  // namespace docket::bench
