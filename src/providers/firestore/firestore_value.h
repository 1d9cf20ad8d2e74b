// Firestore values as the stores write and read them, exactly (REST v1 Value JSON):
//
//   string     {"stringValue": "..."}          UTF-8 text
//   integer    {"integerValue": "-42"}         a signed 64-bit integer as decimal text
//   bytes      {"bytesValue": "AAE="}          base64 (kit/base64.h): stored byte for byte
//   timestamp  {"timestampValue": "2026-12-02T10:49:19.123456Z"}   RFC 3339, UTC, with
//              microseconds: Firestore keeps microseconds, so docket's Timestamps round
//              trip exactly
//   boolean    {"booleanValue": true}          null  {"nullValue": null}
//   map        {"mapValue": {"fields": {...}}}
//
// A document read back is checked field by field, so that a document docket did not
// write is an InfrastructureError naming the store, the document and the field, never a
// crash or a value made up. A field that is absent or null reads as nullopt where the
// reader allows it.
//
// Thread-safety: pure functions; a FieldReader views its fields and belongs to one
// thread.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_VALUE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_VALUE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"

namespace docket::firestore::detail {

nlohmann::json string_value(std::string_view text);
nlohmann::json integer_value(std::int64_t value);
nlohmann::json bytes_value(std::string_view bytes);
// Throws InvalidInputError for an instant outside the years 0001..9999, which Firestore
// cannot store.
nlohmann::json timestamp_value(Timestamp t);
nlohmann::json boolean_value(bool value);
nlohmann::json null_value();
// `fields`: an object of field name -> Value.
nlohmann::json map_value(nlohmann::json fields);

// Reads the fields of one document (its "fields" object, or a map's).
class FieldReader {
 public:
  // `fields` must outlive the reader (a null or absent fields object reads as empty);
  // `where` names the store and document in errors.
  FieldReader(const nlohmann::json& fields, std::string where)
      : fields_(fields), where_(std::move(where)) {}

  // Each throws InfrastructureError when the field is absent (optional_*: or null),
  // holds another type, or a value of its type that does not parse.
  std::string string(std::string_view name) const;
  std::optional<std::string> optional_string(std::string_view name) const;
  std::int64_t integer(std::string_view name) const;
  std::optional<std::int64_t> optional_integer(std::string_view name) const;
  std::string bytes(std::string_view name) const;
  Timestamp timestamp(std::string_view name) const;
  std::optional<Timestamp> optional_timestamp(std::string_view name) const;
  bool boolean(std::string_view name) const;
  // The fields of a map field.
  FieldReader map(std::string_view name) const;

 private:
  // The field's value of `type` ("stringValue"), nullptr when absent or null (and
  // `optional`); throws when required and absent, or of another type.
  const nlohmann::json* value_of(std::string_view name, std::string_view type, bool optional) const;
  [[noreturn]] void refuse(std::string_view name, std::string_view problem) const;

  const nlohmann::json& fields_;
  std::string where_;
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_VALUE_H_
