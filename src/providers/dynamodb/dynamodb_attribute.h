// DynamoDB attribute values as the stores write and read them: a string is {"S": ...},
// an integer {"N": "..."}, bytes {"B": base64} (DynamoDB carries numbers as decimal text), and an
// item read back is checked attribute by attribute, so that an item docket did not write is an
// InfrastructureError naming the store, the item and the attribute, never a crash or a
// value made up.
//
// Thread-safety: pure functions; an ItemReader views its item and belongs to one thread.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_ATTRIBUTE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_ATTRIBUTE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace docket::dynamodb::detail {

// {"S": text}
nlohmann::json string_value(std::string_view text);
// {"N": "<value>"}
nlohmann::json number_value(std::int64_t value);
// {"B": "<base64 of bytes>"}: opaque bytes, stored and counted byte for byte.
nlohmann::json binary_value(std::string_view bytes);

// Reads the attributes of one item (an Item, Attributes or index item map).
class ItemReader {
 public:
  // `item` must outlive the reader; `store` names the store and table in errors.
  ItemReader(const nlohmann::json& item, std::string_view store) : item_(item), store_(store) {}

  // The S value of `name`. Throws InfrastructureError when it is absent or no string.
  std::string_view string(std::string_view name) const;
  std::optional<std::string_view> optional_string(std::string_view name) const;
  // The N value of `name` as a 64-bit integer. Throws InfrastructureError when it is
  // absent, no number, or not an integer that fits.
  std::int64_t number(std::string_view name) const;
  std::optional<std::int64_t> optional_number(std::string_view name) const;
  // The B value of `name`, decoded. Throws InfrastructureError when it is absent, no
  // binary, or not base64.
  std::string binary(std::string_view name) const;

 private:
  // The attribute's value of `type` ("S", "N"), or nullptr when absent.
  const nlohmann::json* value_of(std::string_view name, std::string_view type) const;
  [[noreturn]] void refuse(std::string_view name, std::string_view problem) const;

  const nlohmann::json& item_;
  std::string_view store_;
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_ATTRIBUTE_H_
