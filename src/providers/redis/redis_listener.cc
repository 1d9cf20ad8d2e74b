#include "providers/redis/redis_listener.h"

#include <exception>
#include <string>

#include "docket/core/error.h"
#include "providers/redis/redis_connection.h"

namespace docket::redis::detail {
namespace {

// One listening connection's life (kit::NotificationListener::Listen): returns true when
// the listener stopped, false when the connection failed or could not be made.
bool listen_once(const RedisUrl& url, const std::string& channel,
                 kit::NotificationListener::Session& session) {
  try {
    Connection connection(url);
    if (connection.run({"SUBSCRIBE", channel}).is_error()) {
      return false;
    }
    session.subscribed();
    for (;;) {
      if (!session.wait_readable(connection.socket())) {
        return true;
      }
      if (!connection.read_pushed().empty()) {
        session.heard();
      }
    }
  } catch (const std::exception&) {
    // The server is away, the connection failed, or memory ran out: try again after a
    // pause (an exception leaving the listener's thread would end the process).
    return false;
  }
}

}  // namespace

std::shared_ptr<kit::NotificationListener> shared_listener(const RedisUrl& url,
                                                           std::string_view channel) {
  std::string key = "redis:";
  key.append(url.server()).append(1, '\0').append(url.user).append(1, '\0').append(channel);
  return kit::shared_listener(key, [&] {
    return [url, channel = std::string(channel)](kit::NotificationListener::Session& session) {
      return listen_once(url, channel, session);
    };
  });
}

}  // namespace docket::redis::detail
