#include "providers/cosmos/cosmos_claim_item.h"

#include <cstdint>
#include <optional>

#include "docket/core/error.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail::claim {
namespace {

nlohmann::json optional_time(const std::optional<Timestamp>& time) {
  return time ? nlohmann::json(kit::to_micros(*time)) : nlohmann::json(nullptr);
}

nlohmann::json optional_text(const std::optional<std::string>& text) {
  return text ? nlohmann::json(*text) : nlohmann::json(nullptr);
}

// Reads one field of an item, naming the item and the field when it is not as written.
class ItemReader {
 public:
  ItemReader(const nlohmann::json& item, std::string_view store) : item_(item), store_(store) {}

  std::string_view text(const char* name) const {
    const nlohmann::json& value = field(name);
    if (!value.is_string()) {
      refuse(name, "a string");
    }
    return value.get_ref<const std::string&>();
  }
  std::optional<std::string_view> optional_text(const char* name) const {
    const auto found = item_.find(name);
    if (found == item_.end() || found->is_null()) {
      return std::nullopt;
    }
    return text(name);
  }
  std::int64_t number(const char* name) const {
    const nlohmann::json& value = field(name);
    if (value.is_number_integer()) {
      return value.get<std::int64_t>();
    }
    // A number the server wrote back in a double's form ("1.7e15") still counts when whole.
    if (value.is_number_float()) {
      const double d = value.get<double>();
      const auto whole = static_cast<std::int64_t>(d);
      if (static_cast<double>(whole) == d) {
        return whole;
      }
    }
    refuse(name, "a whole number");
  }
  std::optional<std::int64_t> optional_number(const char* name) const {
    const auto found = item_.find(name);
    if (found == item_.end() || found->is_null()) {
      return std::nullopt;
    }
    return number(name);
  }

 private:
  const nlohmann::json& field(const char* name) const {
    const auto found = item_.find(name);
    if (found == item_.end()) {
      refuse(name, "present");
    }
    return *found;
  }
  [[noreturn]] void refuse(const char* name, std::string_view expected) const {
    throw InfrastructureError(std::string(store_) + ": item '" + item_.value("id", "?") +
                              "' has a field '" + name + "' that is not " + std::string(expected) +
                              "; it was not written by docket's claim inbox. Remove or repair it");
  }

  const nlohmann::json& item_;
  std::string_view store_;
};

}  // namespace

nlohmann::json claim_item(const std::string& id, const ClaimEntry& entry) {
  return {{"id", id},
          {"tenant", entry.key.tenant().value()},
          {"messageId", entry.key.message_id()},
          {"handlerType", entry.key.handler_type()},
          {"status", to_string(entry.status)},
          {"retryCount", entry.retry_count},
          {"receivedAt", kit::to_micros(entry.received_at)},
          {"updatedAt", kit::to_micros(entry.updated_at)},
          {"owner", optional_text(entry.owner)},
          {"claimId", optional_text(entry.claim_id)},
          {"leaseUntil", optional_time(entry.lease_until)},
          {"processedAt", optional_time(entry.processed_at)},
          {"lastError", optional_text(entry.last_error)},
          {"nextAttemptAt", optional_time(entry.next_attempt_at)}};
}

ClaimEntry claim_entry_of(const nlohmann::json& item, std::string_view store) {
  if (!item.is_object()) {
    throw InfrastructureError(std::string(store) + ": an item is not a JSON object");
  }
  const ItemReader read(item, store);
  return kit::claim_entry({.tenant = read.text("tenant"),
                           .message_id = read.text("messageId"),
                           .handler_type = read.text("handlerType"),
                           .status = read.text("status"),
                           .retry_count = read.number("retryCount"),
                           .received_at = read.number("receivedAt"),
                           .updated_at = read.number("updatedAt"),
                           .owner = read.optional_text("owner"),
                           .claim_id = read.optional_text("claimId"),
                           .lease_until = read.optional_number("leaseUntil"),
                           .processed_at = read.optional_number("processedAt"),
                           .last_error = read.optional_text("lastError"),
                           .next_attempt_at = read.optional_number("nextAttemptAt")},
                          store);
}

}  // namespace docket::cosmos::detail::claim
