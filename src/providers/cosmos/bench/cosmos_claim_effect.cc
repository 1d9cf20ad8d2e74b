#include "cosmos_claim_effect.h"

#include <limits>
#include <set>

#include "cosmos_raw_rest.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "providers/cosmos/cosmos_items.h"

namespace docket::bench {
namespace {

constexpr std::string_view kEffectsPartitionKeyPath = "/id";

}  // namespace

void ensure_cosmos_claim_effects(const std::string& url) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url),
                                      cosmos_check_client_options());
  client.ensure_container(client.url().container(kClaimEffectsTable), kEffectsPartitionKeyPath);
}

void count_cosmos_claim_effects(const std::string& url, std::string_view run_id, ClaimRows& rows) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url),
                                      cosmos_check_client_options());
  const std::vector<nlohmann::json> messages =
      cosmos::detail::query_items(client,
                                  {.container = client.url().container(kClaimEffectsTable),
                                   .sql = "SELECT VALUE c.messageId FROM c WHERE c.runId = @run",
                                   .parameters = {{{"name", "@run"}, {"value", run_id}}}},
                                  std::numeric_limits<std::size_t>::max());
  std::set<std::string> distinct;
  for (const nlohmann::json& message : messages) {
    distinct.insert(message.get<std::string>());
  }
  rows.effects += static_cast<std::int64_t>(messages.size());
  rows.effect_messages += static_cast<std::int64_t>(distinct.size());
}

ClaimEffectCosmos::ClaimEffectCosmos(const std::string& url, std::string_view run_id)
    : client_(cosmos::detail::parse_store_url(url), cosmos_check_client_options()),
      container_(client_.url().container(kClaimEffectsTable)),
      run_id_(run_id) {}

void ClaimEffectCosmos::write(std::string_view message_id) {
  const std::string id = Uuid::v7().to_string();
  const std::string link = client_.container_link(container_);
  const cosmos::detail::Request request{
      .what = "claim bench effect create",
      .method = "POST",
      .resource_type = "docs",
      .resource_link = link,
      .path = "/" + link + "/docs",
      .headers = {{"x-ms-documentdb-partitionkey", cosmos::detail::partition_key_header(id)}},
      .body =
          nlohmann::json{
              {"id", id}, {"runId", run_id_}, {"messageId", message_id}, {"body", kClaimEffectBody}}
              .dump()};
  const cosmos::detail::Response response = client_.send(request);
  if (response.status != 201) {
    client_.fail(request, response);
  }
}

}  // namespace docket::bench
