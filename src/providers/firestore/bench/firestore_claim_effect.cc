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
firestore::ClientOptions uncounted_client() {
  return {.http = {.request_count = nullptr}};
}

}  // namespace

std::string firestore_claim_effects_collection(const std::string& url) {
  return firestore::parse_store_url(url).collection(kClaimEffectsTable);
}

void count_firestore_claim_effects(const std::string& url, std::string_view run_id,
                                   ClaimRows& rows) {
  const firestore::Client client(firestore::parse_store_url(url), uncounted_client());
  std::set<std::string> messages;
  firestore::query_pages(
      client,
      {.collection = firestore_claim_effects_collection(url),
       .where =
           firestore::field_filter(kClaimEffectRunId, "EQUAL", firestore::string_value(run_id))},
      kClaimEffectCheckPage, [&](std::vector<firestore::Document>& page) {
        for (const firestore::Document& document : page) {
          ++rows.effects;
          messages.insert(firestore::FieldReader(document.fields, "Firestore claim bench effect")
                              .string(kClaimEffectMessageId));
        }
        return true;
      });
  rows.effect_messages = static_cast<std::int64_t>(messages.size());
}

ClaimEffectFirestore::ClaimEffectFirestore(const std::string& url, std::string_view run_id)
    : client_(firestore::parse_store_url(url), uncounted_client()),
      collection_(firestore_claim_effects_collection(url)),
      run_id_(run_id) {}

void ClaimEffectFirestore::write(std::string_view message_id) {
  const firestore::Write write{
      .collection = collection_,
      .id = Uuid::v7().to_string(),
      .fields = nlohmann::json{{kClaimEffectRunId, firestore::string_value(run_id_)},
                               {kClaimEffectMessageId, firestore::string_value(message_id)},
                               {"body", firestore::string_value(kClaimEffectBody)}},
      .precondition = {}};
  firestore::commit(client_, std::span<const firestore::Write>(&write, 1), collection_);
}

}  // namespace docket::bench
