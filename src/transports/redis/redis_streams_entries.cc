// The entries in Redis's replies to the stream commands (redis_streams_entries.h).
#include "transports/redis/redis_streams_entries.h"

#include <hiredis/hiredis.h>

#include <charconv>
#include <string_view>
#include <utility>

#include "docket/core/error.h"

namespace docket::redis::streams {
namespace {

[[noreturn]] void unexpected_shape(const detail::Reply& reply, std::string_view what) {
  throw InfrastructureError("Redis answered " + reply.command() + " with " + std::string(what) +
                            ", which is not the reply of Redis 6.2 or later; use such a server");
}

bool is_array(const redisReply& r) {
  return r.type == REDIS_REPLY_ARRAY;
}
bool is_string(const redisReply& r) {
  return r.type == REDIS_REPLY_STRING || r.type == REDIS_REPLY_STATUS;
}
std::string text_of(const redisReply& r) {
  return std::string(r.str, r.len);
}

// One [id, [name, value...]] element; false for a deleted entry (nil fields).
bool read_entry(const detail::Reply& reply, const redisReply& element, StreamEntry& out) {
  if (!is_array(element) || element.elements != 2 || !is_string(*element.element[0]))
    unexpected_shape(reply, "an entry that is not [id, fields]");
  out.id = text_of(*element.element[0]);
  const redisReply& fields = *element.element[1];
  if (fields.type == REDIS_REPLY_NIL)
    return false;
  if (!is_array(fields) || fields.elements % 2 != 0)
    unexpected_shape(reply, "an entry whose fields are not name/value pairs");
  out.fields.clear();
  out.fields.reserve(fields.elements / 2);
  for (std::size_t i = 0; i < fields.elements; i += 2) {
    if (!is_string(*fields.element[i]) || !is_string(*fields.element[i + 1]))
      unexpected_shape(reply, "a field that is not a string");
    out.fields.emplace_back(text_of(*fields.element[i]), text_of(*fields.element[i + 1]));
  }
  return true;
}

std::vector<StreamEntry> entries_of(const detail::Reply& reply, const redisReply& list) {
  if (!is_array(list))
    unexpected_shape(reply, "entries that are not an array");
  std::vector<StreamEntry> entries;
  entries.reserve(list.elements);
  for (std::size_t i = 0; i < list.elements; ++i) {
    if (list.element[i]->type == REDIS_REPLY_NIL)
      continue;  // deleted meanwhile (Redis before 7)
    StreamEntry entry;
    if (read_entry(reply, *list.element[i], entry))
      entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace

std::vector<StreamEntry> read_group_entries(const detail::Reply& reply) {
  reply.ok();
  if (reply.is_nil())
    return {};
  if (reply.size() == 0)
    return {};
  const redisReply& stream = reply.element(0);
  if (!is_array(stream) || stream.elements != 2)
    unexpected_shape(reply, "a stream that is not [name, entries]");
  return entries_of(reply, *stream.element[1]);
}

std::vector<StreamEntry> claimed_entries(const detail::Reply& reply) {
  reply.ok();
  std::vector<StreamEntry> entries;
  for (std::size_t i = 0; i < reply.size(); ++i) {
    const redisReply& element = reply.element(i);
    if (element.type == REDIS_REPLY_NIL)
      continue;
    StreamEntry entry;
    if (read_entry(reply, element, entry))
      entries.push_back(std::move(entry));
  }
  return entries;
}

AutoClaimed auto_claimed_entries(const detail::Reply& reply) {
  reply.ok();
  if (reply.size() < 2 || !is_string(reply.element(0)))
    unexpected_shape(reply, "a reply that is not [cursor, entries, deleted]");
  return {text_of(reply.element(0)), entries_of(reply, reply.element(1))};
}

std::map<std::string, std::uint32_t> pending_counts(const detail::Reply& reply) {
  reply.ok();
  std::map<std::string, std::uint32_t> counts;
  for (std::size_t i = 0; i < reply.size(); ++i) {
    const redisReply& row = reply.element(i);
    if (!is_array(row) || row.elements != 4 || !is_string(*row.element[0]) ||
        row.element[3]->type != REDIS_REPLY_INTEGER) {
      unexpected_shape(reply, "a pending entry that is not [id, consumer, idle, count]");
    }
    counts[text_of(*row.element[0])] = static_cast<std::uint32_t>(row.element[3]->integer);
  }
  return counts;
}

bool id_before(const std::string& a, const std::string& b) {
  const auto parts = [](const std::string& id) {
    std::uint64_t ms = 0;
    std::uint64_t seq = 0;
    const auto dash = id.find('-');
    std::from_chars(id.data(), id.data() + (dash == std::string::npos ? id.size() : dash), ms);
    if (dash != std::string::npos)
      std::from_chars(id.data() + dash + 1, id.data() + id.size(), seq);
    return std::pair{ms, seq};
  };
  return parts(a) < parts(b);
}

}  // namespace docket::redis::streams
