// The raw limit of `docket bench relay` on Redis Streams (redis_streams_raw_publisher.h).
#include "redis_streams_raw_publisher.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <algorithm>

#include "docket/core/error.h"
#include "transports/redis/redis_streams_commands.h"
#include "transports/redis/redis_streams_url.h"
#include "transports/redis/redis_streams_wire.h"

namespace docket::redis::streams {
namespace {

timeval after_ms(int ms) {
  return {ms / 1000, static_cast<suseconds_t>((ms % 1000) * 1000)};
}

}  // namespace

void RawStreamsPublisher::FreeContext::operator()(redisContext* context) const noexcept {
  redisFree(context);
}

RawStreamsPublisher::RawStreamsPublisher(std::string_view url,
                                         std::span<const TransportMessage> messages) {
  const StreamsUrl parsed = parse_streams_url(url);
  server_ = parsed.server.server();
  { const detail::Connection check(parsed.server); }  // docket's errors: down, password
  messages_.reserve(messages.size());
  for (const TransportMessage& message : messages) {
    Wire wire{xadd(parsed.stream_prefix + message.destination, encode_entry(message),
                   parsed.create_on_publish),
              {},
              {}};
    for (const std::string& argument : wire.command) {
      wire.argv.push_back(argument.data());
      wire.lengths.push_back(argument.size());
    }
    messages_.push_back(std::move(wire));
  }
  context_.reset(redisConnectWithTimeout(parsed.server.host.c_str(), parsed.server.port,
                                         after_ms(parsed.server.connect_timeout_ms)));
  if (!context_ || context_->err != 0)
    fail("cannot connect: " + std::string(context_ ? context_->errstr : "out of memory"));
  redisSetTimeout(context_.get(), after_ms(parsed.server.command_timeout_ms));
  const auto must = [&](redisReply* reply, std::string_view what) {
    const bool ok = reply != nullptr && reply->type != REDIS_REPLY_ERROR;
    if (reply != nullptr)
      freeReplyObject(reply);
    if (!ok)
      fail(std::string(what) + " failed");
  };
  if (!parsed.server.password.empty()) {
    must(static_cast<redisReply*>(
             parsed.server.user.empty()
                 ? redisCommand(context_.get(), "AUTH %s", parsed.server.password.c_str())
                 : redisCommand(context_.get(), "AUTH %s %s", parsed.server.user.c_str(),
                                parsed.server.password.c_str())),
         "AUTH");
  }
  must(static_cast<redisReply*>(redisCommand(context_.get(), "SELECT %lld", parsed.server.db)),
       "SELECT");
}

RawStreamsPublisher::~RawStreamsPublisher() = default;

void RawStreamsPublisher::fail(const std::string& problem) const {
  throw InfrastructureError("Redis at " + server_ + " (bench raw side): " + problem);
}

void RawStreamsPublisher::publish(bench::ItemRange items, std::size_t batch) {
  if (items.end > messages_.size() || batch == 0) {
    fail("asked to publish messages " + std::to_string(items.begin) + ".." +
         std::to_string(items.end) + " of " + std::to_string(messages_.size()) + " in batches of " +
         std::to_string(batch));
  }
  for (std::size_t first = items.begin; first < items.end; first += batch) {
    const std::size_t last = std::min(items.end, first + batch);
    for (std::size_t i = first; i < last; ++i) {
      Wire& wire = messages_[i];  // hiredis takes a non-const argv
      if (redisAppendCommandArgv(context_.get(), static_cast<int>(wire.argv.size()),
                                 wire.argv.data(), wire.lengths.data()) != REDIS_OK)
        fail("appending an XADD to '" + wire.command[1] + "' failed");
    }
    for (std::size_t i = first; i < last; ++i) {
      void* raw = nullptr;
      if (redisGetReply(context_.get(), &raw) != REDIS_OK || raw == nullptr)
        fail("the connection failed under a batch: " + std::string(context_->errstr));
      auto* reply = static_cast<redisReply*>(raw);
      const bool added = reply->type == REDIS_REPLY_STRING;
      const std::string why = reply->type == REDIS_REPLY_ERROR
                                  ? std::string(reply->str, reply->len)
                                  : "no stream (subscribe its group first)";
      freeReplyObject(reply);
      if (!added)
        fail("the XADD of message " + std::to_string(i) + " to '" + messages_[i].command[1] +
             "' was not taken: " + why);
    }
    ++confirm_waits_;
    confirmed_ += last - first;
  }
}

}  // namespace docket::redis::streams
