// The checked fields of one hash (redis_hash_fields.h).
#include "providers/redis/redis_hash_fields.h"

#include <charconv>
#include <utility>

#include "docket/core/error.h"
#include "providers/kit/time_codec.h"

namespace docket::redis::detail {

HashFields::HashFields(std::span<const std::string> pairs, std::string_view store,
                       std::string_view record, std::string_view id_field)
    : store_(store), record_(record), id_field_(id_field) {
  for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
    values_.emplace(pairs[i], pairs[i + 1]);
  }
}

std::optional<std::string> HashFields::optional(std::string_view name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) {
    return std::nullopt;
  }
  return found->second;
}

std::string HashFields::text(std::string_view name) const {
  std::optional<std::string> value = optional(name);
  if (!value) {
    refuse(name, "is missing");
  }
  return std::move(*value);
}

std::optional<std::int64_t> HashFields::optional_integer(std::string_view name) const {
  const std::optional<std::string> value = optional(name);
  if (!value) {
    return std::nullopt;
  }
  std::int64_t number = 0;
  const char* const end = value->data() + value->size();
  const auto [stop, error] = std::from_chars(value->data(), end, number);
  if (error != std::errc() || stop != end) {
    refuse(name, "holds '" + *value + "', which is no integer");
  }
  return number;
}

std::int64_t HashFields::integer(std::string_view name) const {
  const std::optional<std::int64_t> value = optional_integer(name);
  if (!value) {
    refuse(name, "is missing");
  }
  return *value;
}

Timestamp HashFields::time(std::string_view name) const {
  return kit::from_micros(integer(name));
}

std::optional<Timestamp> HashFields::optional_time(std::string_view name) const {
  const std::optional<std::int64_t> value = optional_integer(name);
  if (!value) {
    return std::nullopt;
  }
  return kit::from_micros(*value);
}

std::string HashFields::describe() const {
  const auto id = values_.find(id_field_);
  return std::string(store_) + ": " + std::string(record_) + " '" +
         (id == values_.end() ? std::string("?") : id->second) + "'";
}

void HashFields::refuse(std::string_view name, const std::string& what) const {
  throw InfrastructureError(describe() + ": field '" + std::string(name) + "' " + what +
                            "; the hash was changed outside docket: restore it");
}

}  // namespace docket::redis::detail
