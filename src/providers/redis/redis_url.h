// A Redis store URL, parsed and range-checked:
//
//   redis://[[USER]:PASSWORD@]HOST[:PORT][/DB][?NAME=VALUE&...]
//   redis://:secret@127.0.0.1:6379/0?prefix=app:
//
// HOST is a name, an IPv4 address or a bracketed IPv6 address; PORT 1-65535 (default
// 6379); DB 0-2147483647 (default 0; the server refuses one beyond its `databases`).
// The user info is percent-decoded: USER is an ACL user (none: the default user),
// PASSWORD is sent with AUTH and never printed. Parameters, each at most once:
//   prefix              prepended to every key docket stores (default "docket:"),
//                       1-256 bytes without spaces or control characters
//   connect_timeout_ms  1-600000 (default 5000): connecting and authenticating
//   command_timeout_ms  1-600000 (default 10000): one reply
//   pool_size           1-1024 (default 8): connections a store keeps
//   require_fsync       always: refuse a server that does not fsync every write
//                       (appendonly yes, appendfsync always), checked on every new
//                       connection before anything is sent (redis_durability.h)
//   client_name         1-64 printable characters, no space: every connection's name
//                       (CLIENT SETNAME), so that CLIENT LIST shows whose it is
//   replicas            1-100: every write waits (WAIT) for this many replicas to
//                       acknowledge it, and fewer are an error (redis_pool.h)
//   replica_timeout_ms  1-600000 (default 1000): how long a write waits for them; only
//                       with replicas
// Anything else (an unknown or repeated parameter, a fragment, a path that is not a
// database number) is refused with a ConfigurationError naming the URL (password
// masked), what is wrong and what to write instead.
//
// Thread-safety: immutable values and pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_URL_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_URL_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docket::redis::detail {

inline constexpr std::string_view kUrlForms =
    "redis://[:PASSWORD@]HOST[:PORT][/DB][?prefix=PREFIX&connect_timeout_ms=N&"
    "command_timeout_ms=N&pool_size=N&require_fsync=always&client_name=NAME&replicas=N&replica_"
    "timeout_ms=N]";

inline constexpr std::size_t kMaxClientNameBytes = 64;
inline constexpr int kMaxReplicas = 100;

struct RedisUrl {
  std::string host{};
  int port = 6379;
  std::string user{};      // "" : the default user
  std::string password{};  // "" : no AUTH
  long long db = 0;
  std::string prefix = "docket:";
  int connect_timeout_ms = 5000;
  int command_timeout_ms = 10000;
  std::size_t pool_size = 8;
  bool require_fsync = false;  // require_fsync=always
  std::string client_name{};   // "" : connections keep no name
  int replicas = 0;            // 0: writes wait for no replica
  int replica_timeout_ms = 1000;
  std::string printable{};  // the URL as given, password masked

  // "127.0.0.1:6379/0": what errors name the server by (never the password).
  std::string server() const;
  // "the Redis <store> at 127.0.0.1:6379/0 (prefix 'docket:')": how a store names itself.
  std::string describe_store(std::string_view store) const;
  // The key docket stores under `base`: the prefix, then `base` (composed by src/keys
  // or one of docket's constant names).
  std::string key(std::string_view base) const { return prefix + std::string(base); }
};

// Throws ConfigurationError naming the URL, what is wrong in it and the form accepted.
RedisUrl parse_url(std::string_view url);

// What parse_url would refuse `url` for, or nullopt when it is a Redis URL.
std::optional<std::string> url_problem(std::string_view url);

// `url`, which may not parse, with its password (and any credential parameter) masked.
std::string printable_url(std::string_view url);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_URL_H_
