#include "docket/sagas/saga_timeouts.h"

#include <cstdint>

namespace docket {

void to_json(nlohmann::json& json, const SagaTimeouts& timeouts) {
  json = nlohmann::json::object();
  for (const auto& [event_type, timeout] : timeouts.pending) {
    json[event_type] = {{"message_id", timeout.message_id},
                        {"due_us", timeout.due.time_since_epoch().count()}};
  }
}

void from_json(const nlohmann::json& json, SagaTimeouts& timeouts) {
  timeouts.pending.clear();
  for (const auto& [event_type, entry] : json.items()) {
    timeouts.pending.emplace(
        event_type,
        SagaTimeout{
            .message_id = entry.at("message_id").get<std::string>(),
            .due = Timestamp(std::chrono::microseconds(entry.at("due_us").get<std::int64_t>()))});
  }
}

}  // namespace docket
