// The Redis provider's registration (providers/registry.h): redis:// URLs
// (redis_url.h). It offers every store: the transactional inbox and its checkpoint
// store, the claim inbox, the outbox, and the event, snapshot and saga stores
// (docs/redis.md).
// Its keys are src/keys' Redis shape (the inbox entry key of the seed); it stored no
// legacy shape, so it has no legacy scan and no re-key. It states the server's
// durability (redis_durability.h).
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "providers/redis/redis_checkpoint_store.h"
#include "providers/redis/redis_claim_inbox_store.h"
#include "providers/redis/redis_connection.h"
#include "providers/redis/redis_durability.h"
#include "providers/redis/redis_event_store.h"
#include "providers/redis/redis_inbox_store.h"
#include "providers/redis/redis_outbox_store.h"
#include "providers/redis/redis_saga_store.h"
#include "providers/redis/redis_snapshot_store.h"
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

// What the server's persistence gives a commit (redis_durability.h), read on a
// connection of its own.
std::string server_durability(std::string_view url) {
  const RedisUrl parsed = parse_url(url);
  Connection connection(parsed);
  return parsed.server() + ": " + describe(read_durability(connection, parsed));
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
      .durability = detail::server_durability,
      .inbox = detail::open_inbox_store,
      .checkpoint = detail::open_checkpoint_store,
      .outbox = detail::open_outbox_store,
      .event = detail::open_event_store,
      .snapshot = detail::open_snapshot_store,
      .saga = detail::open_saga_store,
      .claim_inbox = detail::open_claim_inbox_store,
  };
  return redis;
}

}  // namespace docket::redis
