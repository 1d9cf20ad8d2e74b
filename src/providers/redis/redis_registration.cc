// The Redis provider's registration (providers/registry.h): redis:// URLs
// (redis_url.h). It offers the transactional inbox, its checkpoint store and the claim
// inbox; the outbox, event, snapshot and saga stores are not built yet, so the registry
// refuses them on redis:// URLs, naming the providers that offer them (docs/redis.md).
// Its keys are src/keys' Redis shape (the inbox entry key of the seed); it stored no
// legacy shape, so it has no legacy scan and no re-key.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "providers/redis/redis_checkpoint_store.h"
#include "providers/redis/redis_claim_inbox_store.h"
#include "providers/redis/redis_inbox_store.h"
#include "providers/redis/redis_url.h"
#include "providers/registry.h"

namespace docket::redis {
namespace detail {
namespace {

constexpr std::array<std::string_view, 1> kSchemes = {"redis"};

std::optional<std::string> registry_url_problem(std::string_view url) {
  if (auto problem = url_problem(url)) {
    return "is refused: " + *problem;
  }
  return std::nullopt;
}

}  // namespace
}  // namespace detail

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration redis{
      .name = "redis",
      .schemes = detail::kSchemes,
      .url_forms = detail::kUrlForms,
      .key_shape = keys::Provider::kRedis,
      .process_local = false,
      .url_problem = detail::registry_url_problem,
      // The password of the user info (and any credential parameter) masked.
      .printable_url = detail::printable_url,
      .inbox = detail::open_inbox_store,
      .checkpoint = detail::open_checkpoint_store,
      .claim_inbox = detail::open_claim_inbox_store,
  };
  return redis;
}

}  // namespace docket::redis
