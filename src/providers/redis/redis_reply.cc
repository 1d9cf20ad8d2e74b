// An owned Redis reply (redis_reply.h).
#include "providers/redis/redis_reply.h"

#include <hiredis.h>

#include <string>
#include <utility>

#include "docket/core/error.h"

namespace docket::redis::detail {
namespace {

std::string_view type_name(int type) noexcept {
  switch (type) {
    case REDIS_REPLY_STRING:
      return "a string";
    case REDIS_REPLY_ARRAY:
      return "an array";
    case REDIS_REPLY_INTEGER:
      return "an integer";
    case REDIS_REPLY_NIL:
      return "nil";
    case REDIS_REPLY_STATUS:
      return "a status";
    case REDIS_REPLY_ERROR:
      return "an error";
    default:
      return "a reply of an unknown type";
  }
}

}  // namespace

void Reply::Free::operator()(redisReply* reply) const noexcept {
  freeReplyObject(reply);
}

Reply::Reply(redisReply* reply, std::string command, std::string server)
    : reply_(reply), command_(std::move(command)), server_(std::move(server)) {}

bool Reply::is_error() const noexcept {
  return reply_->type == REDIS_REPLY_ERROR;
}
bool Reply::is_nil() const noexcept {
  return reply_->type == REDIS_REPLY_NIL;
}

std::string_view Reply::text() const {
  if (reply_->type != REDIS_REPLY_ERROR && reply_->type != REDIS_REPLY_STATUS &&
      reply_->type != REDIS_REPLY_STRING) {
    unexpected("text");
  }
  return {reply_->str, reply_->len};
}

long long Reply::integer() const {
  if (reply_->type != REDIS_REPLY_INTEGER) {
    unexpected("an integer");
  }
  return reply_->integer;
}

std::optional<std::string> Reply::string() const {
  if (reply_->type == REDIS_REPLY_NIL) {
    return std::nullopt;
  }
  if (reply_->type != REDIS_REPLY_STRING && reply_->type != REDIS_REPLY_STATUS) {
    unexpected("a string");
  }
  return std::string(reply_->str, reply_->len);
}

std::size_t Reply::size() const {
  if (reply_->type != REDIS_REPLY_ARRAY) {
    unexpected("an array");
  }
  return reply_->elements;
}

const redisReply& Reply::element(std::size_t i) const {
  if (i >= size()) {
    throw InfrastructureError("Redis at " + server_ + " answered " + command_ + " with " +
                              std::to_string(reply_->elements) + " elements where docket read " +
                              "element " + std::to_string(i) + ": is this a Redis server?");
  }
  return *reply_->element[i];
}

std::optional<std::string> Reply::string_at(std::size_t i) const {
  const redisReply& e = element(i);
  if (e.type == REDIS_REPLY_NIL) {
    return std::nullopt;
  }
  if (e.type != REDIS_REPLY_STRING && e.type != REDIS_REPLY_STATUS) {
    unexpected("an array of strings");
  }
  return std::string(e.str, e.len);
}

long long Reply::integer_at(std::size_t i) const {
  const redisReply& e = element(i);
  if (e.type != REDIS_REPLY_INTEGER) {
    unexpected("an array of integers");
  }
  return e.integer;
}

std::vector<std::string> Reply::strings() const {
  ok();
  std::vector<std::string> out;
  out.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) {
    std::optional<std::string> item = string_at(i);
    if (!item) {
      unexpected("an array of strings");
    }
    out.push_back(std::move(*item));
  }
  return out;
}

std::vector<std::string> Reply::strings_at(std::size_t i) const {
  const redisReply& e = element(i);
  if (e.type != REDIS_REPLY_ARRAY) {
    unexpected("an array holding an array");
  }
  std::vector<std::string> out;
  out.reserve(e.elements);
  for (std::size_t j = 0; j < e.elements; ++j) {
    const redisReply& item = *e.element[j];
    if (item.type != REDIS_REPLY_STRING) {
      unexpected("an array holding an array of strings");
    }
    out.emplace_back(item.str, item.len);
  }
  return out;
}

const Reply& Reply::ok() const {
  if (is_error()) {
    throw InfrastructureError("Redis at " + server_ + " refused " + command_ + ": " +
                              std::string(text()));
  }
  return *this;
}

void Reply::unexpected(std::string_view wanted) const {
  if (reply_->type == REDIS_REPLY_ERROR) {
    ok();
  }
  throw InfrastructureError("Redis at " + server_ + " answered " + command_ + " with " +
                            std::string(type_name(reply_->type)) + " where docket expected " +
                            std::string(wanted) +
                            ": is this a Redis server docket supports (7.0)?");
}

}  // namespace docket::redis::detail
