// A Redis server's persistence as docket's commits see it (redis_durability.h).
#include "providers/redis/redis_durability.h"

#include "docket/core/error.h"

namespace docket::redis::detail {

std::string describe(const ServerDurability& durability) {
  if (!durability.append_only) {
    return "appendonly no: a crash of the server loses every commit since its last RDB "
           "snapshot, and each of those messages is processed again when redelivered";
  }
  if (durability.fsync == "always") {
    return "appendonly yes, appendfsync always: an acknowledged commit is on disk and "
           "survives a crash of the server";
  }
  if (durability.fsync == "everysec") {
    return "appendonly yes, appendfsync everysec: a crash of the server can lose up to about "
           "a second of acknowledged commits, and a redelivery in that window is processed "
           "again";
  }
  return "appendonly yes, appendfsync " + durability.fsync +
         ": the operating system decides when writes reach the disk, so a crash of the "
         "machine can lose acknowledged commits, and their messages are processed again";
}

ServerDurability read_durability(Connection& connection, const RedisUrl& url) {
  const Reply reply = connection.run({"CONFIG", "GET", "appendonly", "appendfsync"});
  if (reply.is_error()) {
    throw ConfigurationError("Redis at " + url.server() + " refused CONFIG GET (" +
                             std::string(reply.text()) +
                             "), so docket cannot check require_fsync=always: allow CONFIG GET "
                             "for docket's user, or remove require_fsync from the store URL");
  }
  ServerDurability durability;
  for (std::size_t i = 0; i + 1 < reply.size(); i += 2) {
    const std::string name = reply.string_at(i).value_or("");
    const std::string value = reply.string_at(i + 1).value_or("");
    if (name == "appendonly") {
      durability.append_only = value == "yes";
    } else if (name == "appendfsync") {
      durability.fsync = value;
    }
  }
  return durability;
}

void check_durability(const ServerDurability& durability, const RedisUrl& url) {
  if (url.require_fsync && !durability.fsyncs_every_write()) {
    throw ConfigurationError(
        "Redis at " + url.server() + " runs " + describe(durability) +
        "; the store URL asks require_fsync=always, so docket writes nothing there: set "
        "`appendonly yes` and `appendfsync always` in the server's configuration, or remove "
        "require_fsync from the URL to accept what the server gives");
  }
}

}  // namespace docket::redis::detail
