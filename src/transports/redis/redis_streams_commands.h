// The stream commands the transport sends, built in one place so that the publisher,
// the subscription channel and the dead-lettering agree on their arguments.
//
// Thread-safety: pure functions.
#ifndef DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_COMMANDS_H_
#define DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_COMMANDS_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "providers/redis/redis_connection.h"
#include "transports/redis/redis_streams_wire.h"

namespace docket::redis::streams {

// The consumer a closing subscription hands its entries to (redis_streams_channel.h).
inline constexpr std::string_view kReturnedConsumer = "docket-returned";

// XADD stream [NOMKSTREAM] * data ... : NOMKSTREAM unless `create`.
detail::Command xadd(std::string_view stream, Fields fields, bool create);  // moved in

// XGROUP CREATE stream group 0 MKSTREAM: the group reads the whole stream.
detail::Command create_group(std::string_view stream, std::string_view group);

// XCLAIM of `ids` to `consumer` with min-idle 0; with JUSTID, only the idle time is
// reset (the delivery count stays).
detail::Command claim(std::string_view stream, std::string_view group, std::string_view consumer,
                      std::span<const std::string> ids, bool just_id);

// XCLAIM of `id` to kReturnedConsumer, idle `idle`, its delivery count set to `count`.
detail::Command park(std::string_view stream, std::string_view group, std::string_view id,
                     std::chrono::milliseconds idle, std::uint32_t count);

// XREADGROUP GROUP group consumer COUNT n [BLOCK ms] STREAMS stream >.
detail::Command read_new(std::string_view stream, std::string_view group, std::string_view consumer,
                         std::size_t count, std::optional<std::chrono::milliseconds> block);

// XAUTOCLAIM stream group consumer min-idle cursor COUNT n.
detail::Command auto_claim(std::string_view stream, std::string_view group,
                           std::string_view consumer, std::chrono::milliseconds min_idle,
                           std::string_view cursor, std::size_t count);

// XPENDING stream group first last count [consumer]: the extended form.
detail::Command pending(std::string_view stream, std::string_view group, std::string_view first,
                        std::string_view last, std::size_t count, std::string_view consumer);

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_COMMANDS_H_
