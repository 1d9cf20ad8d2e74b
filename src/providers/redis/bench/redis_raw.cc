#include "redis_raw.h"

#include <sys/time.h>

#include <atomic>
#include <charconv>
#include <string>

#include "docket/core/error.h"

namespace docket::bench {
namespace {

std::atomic<std::uint64_t> raw_round_trip_counter{0};

timeval timeval_of(int ms) noexcept {
  return timeval{.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
}

}  // namespace

std::string_view reply_text(const redisReply& reply) noexcept {
  if (reply.type == REDIS_REPLY_STRING || reply.type == REDIS_REPLY_STATUS ||
      reply.type == REDIS_REPLY_ERROR) {
    return {reply.str, reply.len};
  }
  return {};
}

long long reply_integer(const redisReply& reply) {
  if (reply.type == REDIS_REPLY_INTEGER) {
    return reply.integer;
  }
  const std::string_view text = reply_text(reply);
  long long value = 0;
  if (std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc{}) {
    throw InfrastructureError("raw baseline: Redis replied '" + std::string(text) +
                              "' where a number was expected");
  }
  return value;
}

std::string glob_escape(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
      escaped.push_back('\\');
    }
    escaped.push_back(c);
  }
  return escaped;
}

RawRedis::RawRedis(const std::string& url, Counting counting)
    : url_(redis::detail::parse_url(url)), counting_(counting) {
  context_.reset(
      redisConnectWithTimeout(url_.host.c_str(), url_.port, timeval_of(url_.connect_timeout_ms)));
  if (!context_ || context_->err != 0) {
    throw InfrastructureError("raw baseline: cannot connect to Redis at " + url_.server() + ": " +
                              (context_ ? context_->errstr : "out of memory") +
                              "; start the server or check the URL");
  }
  if (redisSetTimeout(context_.get(), timeval_of(url_.command_timeout_ms)) != REDIS_OK) {
    fail("setting the command timeout");
  }
  const Counting kept = counting_;
  counting_ = Counting::kUncounted;  // set-up
  // AUTH refused, or a server that wants a password the URL lacks, is the URL's fault:
  // said as docket's own connection says it (redis_connection.h).
  const RawReply hello = url_.password.empty() ? command_reply({"PING"})
                         : url_.user.empty()   ? command_reply({"AUTH", url_.password})
                                               : command_reply({"AUTH", url_.user, url_.password});
  if (hello->type == REDIS_REPLY_ERROR) {
    throw ConfigurationError(
        "raw baseline: Redis at " + url_.server() + " refused the connection (" +
        std::string(reply_text(*hello)) + "): " +
        (url_.password.empty()
             ? "write the password in the store URL, redis://:PASSWORD@" + url_.server()
             : std::string("check the password in the store URL")));
  }
  if (url_.db != 0) {
    const std::string db = std::to_string(url_.db);
    run({"SELECT", db});
  }
  counting_ = kept;
}

void RawRedis::fail(std::string_view what) const {
  throw InfrastructureError("raw baseline: the connection to Redis at " + url_.server() +
                            " failed under " + std::string(what) + ": " +
                            (context_->errstr[0] != '\0' ? context_->errstr : "closed"));
}

void RawRedis::append(std::span<const std::string_view> args) {
  argv_.clear();
  lengths_.clear();
  for (const std::string_view arg : args) {
    argv_.push_back(arg.data());
    lengths_.push_back(arg.size());
  }
  if (redisAppendCommandArgv(context_.get(), static_cast<int>(argv_.size()), argv_.data(),
                             lengths_.data()) != REDIS_OK) {
    fail(args.empty() ? std::string_view("a command") : args.front());
  }
}

RawReply RawRedis::command_reply(std::initializer_list<std::string_view> args) {
  append(std::span<const std::string_view>(args.begin(), args.size()));
  void* reply = nullptr;
  if (redisGetReply(context_.get(), &reply) != REDIS_OK || reply == nullptr) {
    fail(*args.begin());
  }
  return RawReply(static_cast<redisReply*>(reply));
}

RawReply RawRedis::read_one(std::string_view what) {
  void* reply = nullptr;
  if (redisGetReply(context_.get(), &reply) != REDIS_OK || reply == nullptr) {
    fail(what);
  }
  RawReply owned(static_cast<redisReply*>(reply));
  if (owned->type == REDIS_REPLY_ERROR) {
    throw InfrastructureError("raw baseline: Redis at " + url_.server() + " refused " +
                              std::string(what) + ": " + std::string(reply_text(*owned)));
  }
  return owned;
}

std::vector<RawReply> RawRedis::read(std::size_t replies) {
  if (counting_ == Counting::kCounted) {
    raw_round_trip_counter.fetch_add(1, std::memory_order_relaxed);
  }
  std::vector<RawReply> out;
  out.reserve(replies);
  for (std::size_t r = 0; r < replies; ++r) {
    out.push_back(read_one("a pipelined command"));
  }
  return out;
}

RawReply RawRedis::run(std::span<const std::string_view> args) {
  append(args);
  if (counting_ == Counting::kCounted) {
    raw_round_trip_counter.fetch_add(1, std::memory_order_relaxed);
  }
  return read_one(args.empty() ? std::string_view("a command") : args.front());
}

std::string RawRedis::load_script(std::string_view source) {
  const Counting kept = counting_;
  counting_ = Counting::kUncounted;
  const RawReply sha = run({"SCRIPT", "LOAD", source});
  counting_ = kept;
  return std::string(reply_text(*sha));
}

void RawRedis::scan(std::string_view pattern,
                    const std::function<void(const redisReply& keys)>& page) {
  std::string cursor = "0";
  do {
    const RawReply reply = run({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
      throw InfrastructureError("raw baseline: SCAN on Redis at " + url_.server() +
                                " replied with no cursor and page");
    }
    cursor = std::string(reply_text(*reply->element[0]));
    page(*reply->element[1]);
  } while (cursor != "0");
}

std::uint64_t RawRedis::round_trips() noexcept {
  return raw_round_trip_counter.load(std::memory_order_relaxed);
}

}  // namespace docket::bench
