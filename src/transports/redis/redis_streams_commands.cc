// The stream commands the transport sends (redis_streams_commands.h).
#include "transports/redis/redis_streams_commands.h"

#include <string>
#include <utility>

namespace docket::redis::streams {

detail::Command xadd(std::string_view stream, Fields fields, bool create) {
  detail::Command command;
  command.reserve(fields.size() * 2 + 4);
  command.emplace_back("XADD");
  command.emplace_back(stream);
  if (!create)
    command.emplace_back("NOMKSTREAM");
  command.emplace_back("*");
  for (auto& [name, value] : fields) {
    command.push_back(std::move(name));
    command.push_back(std::move(value));
  }
  return command;
}

detail::Command create_group(std::string_view stream, std::string_view group) {
  return {"XGROUP", "CREATE", std::string(stream), std::string(group), "0", "MKSTREAM"};
}

detail::Command claim(std::string_view stream, std::string_view group, std::string_view consumer,
                      std::span<const std::string> ids, bool just_id) {
  detail::Command command{"XCLAIM", std::string(stream), std::string(group), std::string(consumer),
                          "0"};
  command.insert(command.end(), ids.begin(), ids.end());
  if (just_id)
    command.emplace_back("JUSTID");
  return command;
}

detail::Command park(std::string_view stream, std::string_view group, std::string_view id,
                     std::chrono::milliseconds idle, std::uint32_t count) {
  return {"XCLAIM",
          std::string(stream),
          std::string(group),
          std::string(kReturnedConsumer),
          "0",
          std::string(id),
          "IDLE",
          std::to_string(idle.count()),
          "RETRYCOUNT",
          std::to_string(count),
          "JUSTID"};
}

detail::Command read_new(std::string_view stream, std::string_view group, std::string_view consumer,
                         std::size_t count, std::optional<std::chrono::milliseconds> block) {
  detail::Command command{"XREADGROUP",          "GROUP", std::string(group),
                          std::string(consumer), "COUNT", std::to_string(count)};
  if (block) {
    command.emplace_back("BLOCK");
    command.push_back(std::to_string(block->count()));
  }
  command.emplace_back("STREAMS");
  command.emplace_back(stream);
  command.emplace_back(">");
  return command;
}

detail::Command auto_claim(std::string_view stream, std::string_view group,
                           std::string_view consumer, std::chrono::milliseconds min_idle,
                           std::string_view cursor, std::size_t count) {
  return {"XAUTOCLAIM",
          std::string(stream),
          std::string(group),
          std::string(consumer),
          std::to_string(min_idle.count()),
          std::string(cursor),
          "COUNT",
          std::to_string(count)};
}

detail::Command pending(std::string_view stream, std::string_view group, std::string_view first,
                        std::string_view last, std::size_t count, std::string_view consumer) {
  return {"XPENDING",        std::string(stream),   std::string(group),   std::string(first),
          std::string(last), std::to_string(count), std::string(consumer)};
}

}  // namespace docket::redis::streams
