#include "providers/dynamodb/dynamodb_attribute.h"

#include <charconv>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/kit/base64.h"

namespace docket::dynamodb::detail {

nlohmann::json string_value(std::string_view text) {
  return {{"S", text}};
}

nlohmann::json number_value(std::int64_t value) {
  return {{"N", std::to_string(value)}};
}

nlohmann::json binary_value(std::string_view bytes) {
  return {{"B", kit::base64_encode(bytes)}};
}

const nlohmann::json* ItemReader::value_of(std::string_view name, std::string_view type) const {
  if (!item_.is_object()) {
    refuse(name, "the item is not an attribute map");
  }
  const auto attribute = item_.find(name);
  if (attribute == item_.end() || attribute->contains("NULL")) {
    return nullptr;
  }
  const auto value = attribute->find(type);
  if (value == attribute->end() || !value->is_string()) {
    refuse(name, "is not of type " + std::string(type) + ": " + attribute->dump());
  }
  return &*value;
}

std::string_view ItemReader::string(std::string_view name) const {
  if (const std::optional<std::string_view> text = optional_string(name)) {
    return *text;
  }
  refuse(name, "is missing");
}

std::optional<std::string_view> ItemReader::optional_string(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "S");
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string_view(value->get_ref<const std::string&>());
}

std::int64_t ItemReader::number(std::string_view name) const {
  if (const std::optional<std::int64_t> value = optional_number(name)) {
    return *value;
  }
  refuse(name, "is missing");
}

std::optional<std::int64_t> ItemReader::optional_number(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "N");
  if (value == nullptr) {
    return std::nullopt;
  }
  const std::string& text = value->get_ref<const std::string&>();
  std::int64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size()) {
    refuse(name, "holds '" + text + "', not a 64-bit integer");
  }
  return number;
}

std::string ItemReader::binary(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "B");
  if (value == nullptr) {
    refuse(name, "is missing");
  }
  std::optional<std::string> bytes = kit::base64_decode(value->get_ref<const std::string&>());
  if (!bytes) {
    refuse(name, "holds a B value that is not base64");
  }
  return std::move(*bytes);
}

void ItemReader::refuse(std::string_view name, std::string_view problem) const {
  throw InfrastructureError(std::string(store_) + ": an item's attribute '" + std::string(name) +
                            "' " + std::string(problem) +
                            "; the item was not written by docket: fix or delete it");
}

}  // namespace docket::dynamodb::detail
