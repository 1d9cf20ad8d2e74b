// One Redis connection (redis_connection.h).
#include "providers/redis/redis_connection.h"

#include <hiredis.h>
#include <poll.h>
#include <sys/time.h>

#include <string>
#include <utility>

#include "providers/redis/redis_durability.h"
#include "providers/redis/redis_round_trips.h"

namespace docket::redis::detail {
namespace {

timeval to_timeval(int ms) noexcept {
  return timeval{.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
}

}  // namespace

void Connection::Free::operator()(redisContext* context) const noexcept {
  redisFree(context);
}

std::string command_name(const Command& command) {
  return command.empty() ? std::string("(empty command)") : command.front();
}

Connection::Connection(const RedisUrl& url) : url_(url) {
  context_.reset(
      redisConnectWithTimeout(url.host.c_str(), url.port, to_timeval(url.connect_timeout_ms)));
  if (!context_ || context_->err != 0) {
    const std::string why = context_ ? context_->errstr : "out of memory";
    throw InfrastructureError(
        "cannot connect to Redis at " + url.server() + ": " + why +
        " (within connect_timeout_ms=" + std::to_string(url.connect_timeout_ms) +
        "); start the server or check the URL's host and port");
  }
  if (redisSetTimeout(context_.get(), to_timeval(url.command_timeout_ms)) != REDIS_OK ||
      redisEnableKeepAlive(context_.get()) != REDIS_OK) {
    throw InfrastructureError("cannot set the timeouts of a connection to Redis at " +
                              url.server() + ": " + context_->errstr);
  }
  if (!url.password.empty()) {
    const Reply reply =
        url.user.empty() ? run({"AUTH", url.password}) : run({"AUTH", url.user, url.password});
    if (reply.is_error()) {
      throw ConfigurationError(
          "Redis at " + url.server() + " refused the URL's " +
          (url.user.empty() ? std::string("password") : "user '" + url.user + "' and password") +
          " (" + std::string(reply.text()) + "): check the password in the store URL");
    }
  }
  if (url.password.empty()) {
    // Without AUTH nothing else would say that the server wants a password.
    const Reply reply = run({"PING"});
    if (reply.is_error() && reply.text().starts_with("NOAUTH")) {
      throw ConfigurationError("Redis at " + url.server() +
                               " requires a password (NOAUTH), and the store URL gives none: "
                               "write it as redis://:PASSWORD@" +
                               url.server());
    }
  }
  if (!url.client_name.empty()) {
    const Reply reply = run({"CLIENT", "SETNAME", url.client_name});
    if (reply.is_error()) {
      throw ConfigurationError("Redis at " + url.server() + " refused client_name '" +
                               url.client_name + "' (" + std::string(reply.text()) +
                               "): leave client_name out, or allow CLIENT SETNAME");
    }
  }
  if (url.require_fsync) {
    check_durability(read_durability(*this, url), url);
  }
  if (url.db != 0) {
    const Reply reply = run({"SELECT", std::to_string(url.db)});
    if (reply.is_error()) {
      throw ConfigurationError("Redis at " + url.server() + " refused database " +
                               std::to_string(url.db) + " (" + std::string(reply.text()) +
                               "): use a database number below the server's `databases`");
    }
  }
}

int Connection::socket() const noexcept {
  return context_->fd;
}

std::vector<Reply> Connection::read_pushed() {
  if (broken_ || redisBufferRead(context_.get()) != REDIS_OK) {
    lost("a pushed message");
  }
  std::vector<Reply> replies;
  for (;;) {
    void* reply = nullptr;
    if (redisGetReplyFromReader(context_.get(), &reply) != REDIS_OK) {
      lost("a pushed message");
    }
    if (reply == nullptr) {
      return replies;  // the rest, if any, has not arrived yet
    }
    replies.emplace_back(static_cast<redisReply*>(reply), "a pushed message", url_.server());
  }
}

bool Connection::broken() const noexcept {
  if (broken_ || context_->err != 0) {
    return true;
  }
  // An idle connection has nothing to read; something readable is the server's close
  // (CLIENT KILL, timeout, restart).
  pollfd descriptor{.fd = context_->fd, .events = POLLIN, .revents = 0};
  return poll(&descriptor, 1, 0) != 0;
}

void Connection::lost(std::string_view command) {
  broken_ = true;
  const std::string why = context_->errstr[0] != '\0' ? context_->errstr : "connection closed";
  const bool timed_out = context_->err == REDIS_ERR_IO &&
                         (why.find("timed out") != std::string::npos ||
                          why.find("Resource temporarily unavailable") != std::string::npos);
  throw ConnectionLostError("the connection to Redis at " + url_.server() + " failed under " +
                            std::string(command) + ": " + why +
                            (timed_out ? " (no reply within command_timeout_ms=" +
                                             std::to_string(url_.command_timeout_ms) +
                                             "; raise it or check the server)"
                                       : "; check that the server runs and is reachable"));
}

Reply Connection::run(const Command& command) {
  std::vector<Reply> replies = pipeline(std::span<const Command>(&command, 1));
  return std::move(replies.front());
}

std::vector<Reply> Connection::pipeline(std::span<const Command> commands) {
  if (broken_) {
    lost(commands.empty() ? "a command" : command_name(commands.front()));
  }
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const Command& command : commands) {
    argv.clear();
    lengths.clear();
    for (const std::string& argument : command) {
      argv.push_back(argument.data());
      lengths.push_back(argument.size());
    }
    if (redisAppendCommandArgv(context_.get(), static_cast<int>(argv.size()), argv.data(),
                               lengths.data()) != REDIS_OK) {
      lost(command_name(command));
    }
  }
  count_round_trip();
  std::vector<Reply> replies;
  replies.reserve(commands.size());
  for (const Command& command : commands) {
    void* reply = nullptr;
    if (redisGetReply(context_.get(), &reply) != REDIS_OK || reply == nullptr) {
      lost(command_name(command));
    }
    replies.emplace_back(static_cast<redisReply*>(reply), command_name(command), url_.server());
  }
  return replies;
}

}  // namespace docket::redis::detail
