// One connection to a Redis server: a hiredis context (redisContext), owned and freed
// once, connected with the URL's connect timeout, authenticated (AUTH) and on the URL's
// database (SELECT) before it is used, with the URL's command timeout on every reply.
//
// Invariants: a Connection is either usable (connected, authenticated, selected) or
// broken(); a broken one is never sent to again, only reconnected or dropped. A
// command that fails at the connection (refused, reset, timed out, closed by the
// server) leaves it broken and throws ConnectionLostError; the caller decides whether
// the command may be sent again (it may have run). Errors name the server
// (RedisUrl::server()), never the password, and say what to do.
//
// Thread-safety: a Connection belongs to one thread at a time (the pool hands it out).
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_CONNECTION_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_CONNECTION_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "providers/redis/redis_reply.h"
#include "providers/redis/redis_url.h"

struct redisContext;

namespace docket::redis::detail {

// The connection failed under a command: it may or may not have run on the server.
class ConnectionLostError : public InfrastructureError {
 public:
  using InfrastructureError::InfrastructureError;
};

// One command: its arguments, each a binary-safe string.
using Command = std::vector<std::string>;

class Connection {
 public:
  // Connects, authenticates, checks the server's persistence where the URL asks
  // require_fsync=always, and selects. Throws InfrastructureError when the server cannot
  // be reached, ConfigurationError when it refuses the password or the database or does
  // not fsync every write that was required.
  explicit Connection(const RedisUrl& url);

  // Sends `command` and reads its reply (an error reply is returned, not thrown).
  // Throws ConnectionLostError, leaving the connection broken, when the connection fails.
  Reply run(const Command& command);
  // Sends every command, then reads every reply, in order: one round trip.
  std::vector<Reply> pipeline(std::span<const Command> commands);

  // For a connection in subscribe mode (SUBSCRIBE sent with run()): the socket to wait
  // on, and every reply pushed to it that has arrived, after one read of what the socket
  // holds (call it once the socket is readable: the read does not wait then). Throws
  // ConnectionLostError when the connection failed.
  int socket() const noexcept;
  std::vector<Reply> read_pushed();

  // True once a command failed at the connection, or when the server has closed it
  // while it sat idle (checked without a round trip: an idle connection with
  // something to read has been closed or killed).
  bool broken() const noexcept;

 private:
  struct Free {
    void operator()(redisContext* context) const noexcept;
  };
  [[noreturn]] void lost(std::string_view command);

  RedisUrl url_;  // a copy: the connection may outlive the caller's
  std::unique_ptr<redisContext, Free> context_;
  bool broken_ = false;
};

// "GET", "EVALSHA": a command's name for messages (never its arguments, which may hold
// data).
std::string command_name(const Command& command);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_CONNECTION_H_
