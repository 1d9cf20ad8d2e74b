#include "providers/firestore/firestore_value.h"

#include <charconv>
#include <utility>

#include "docket/core/error.h"
#include "providers/firestore/firestore_timestamp.h"
#include "providers/kit/base64.h"

namespace docket::firestore::detail {
namespace {

// Firestore's timestamps: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z.
constexpr std::int64_t kMinFirestoreMicros = -62'135'596'800'000'000;
constexpr std::int64_t kMaxFirestoreMicros = 253'402'300'799'999'999;

const nlohmann::json& empty_fields() {
  static const nlohmann::json empty = nlohmann::json::object();
  return empty;
}

}  // namespace

nlohmann::json string_value(std::string_view text) {
  return {{"stringValue", std::string(text)}};
}

nlohmann::json integer_value(std::int64_t value) {
  return {{"integerValue", std::to_string(value)}};
}

nlohmann::json bytes_value(std::string_view bytes) {
  return {{"bytesValue", kit::base64_encode(bytes)}};
}

nlohmann::json timestamp_value(Timestamp t) {
  const std::int64_t micros = t.time_since_epoch().count();
  if (micros < kMinFirestoreMicros || micros > kMaxFirestoreMicros) {
    throw InvalidInputError("the instant " + std::to_string(micros) +
                            " us after 1970 is outside the years 0001 to 9999, which a "
                            "Firestore timestamp holds: give an instant within them");
  }
  return {{"timestampValue", format_timestamp(t)}};
}

nlohmann::json boolean_value(bool value) {
  return {{"booleanValue", value}};
}

nlohmann::json null_value() {
  return {{"nullValue", nullptr}};
}

nlohmann::json map_value(nlohmann::json fields) {
  return {{"mapValue", {{"fields", std::move(fields)}}}};
}

const nlohmann::json* FieldReader::value_of(std::string_view name, std::string_view type,
                                            bool optional) const {
  const nlohmann::json& fields = fields_.is_object() ? fields_ : empty_fields();
  const auto field = fields.find(name);
  if (field == fields.end() || (field->is_object() && field->contains("nullValue"))) {
    if (optional) {
      return nullptr;
    }
    refuse(name, field == fields.end() ? "is missing" : "is null");
  }
  const auto value = field->is_object() ? field->find(type) : field->end();
  if (!field->is_object() || value == field->end()) {
    refuse(name, "is not of type " + std::string(type) + " (found " + field->dump() + ")");
  }
  return &*value;
}

void FieldReader::refuse(std::string_view name, std::string_view problem) const {
  throw InfrastructureError(where_ + ": field '" + std::string(name) + "' " + std::string(problem) +
                            "; the document was not written by docket, or was changed "
                            "outside it: remove or repair it");
}

std::string FieldReader::string(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "stringValue", false);
  if (!value->is_string()) {
    refuse(name, "holds a stringValue that is no JSON string");
  }
  return value->get<std::string>();
}

std::optional<std::string> FieldReader::optional_string(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "stringValue", true);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (!value->is_string()) {
    refuse(name, "holds a stringValue that is no JSON string");
  }
  return value->get<std::string>();
}

std::int64_t FieldReader::integer(std::string_view name) const {
  if (std::optional<std::int64_t> value = optional_integer(name)) {
    return *value;
  }
  value_of(name, "integerValue", false);  // throws: missing or null
  return 0;
}

std::optional<std::int64_t> FieldReader::optional_integer(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "integerValue", true);
  if (value == nullptr) {
    return std::nullopt;
  }
  // The REST API writes int64 as decimal text; accept a JSON number too.
  if (value->is_number_integer()) {
    return value->get<std::int64_t>();
  }
  std::int64_t parsed = 0;
  const std::string* text = value->get_ptr<const std::string*>();
  if (text == nullptr ||
      std::from_chars(text->data(), text->data() + text->size(), parsed).ptr !=
          text->data() + text->size() ||
      text->empty()) {
    refuse(name, "holds an integerValue that is not a 64-bit integer (" + value->dump() + ")");
  }
  return parsed;
}

std::string FieldReader::bytes(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "bytesValue", false);
  const std::string* text = value->get_ptr<const std::string*>();
  std::optional<std::string> decoded = text == nullptr ? std::nullopt : kit::base64_decode(*text);
  if (!decoded) {
    refuse(name, "holds a bytesValue that is not base64");
  }
  return std::move(*decoded);
}

Timestamp FieldReader::timestamp(std::string_view name) const {
  if (std::optional<Timestamp> value = optional_timestamp(name)) {
    return *value;
  }
  value_of(name, "timestampValue", false);  // throws: missing or null
  return {};
}

std::optional<Timestamp> FieldReader::optional_timestamp(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "timestampValue", true);
  if (value == nullptr) {
    return std::nullopt;
  }
  const std::string* text = value->get_ptr<const std::string*>();
  std::optional<Timestamp> parsed = text == nullptr ? std::nullopt : parse_rfc3339(*text);
  if (!parsed) {
    refuse(name, "holds a timestampValue that is not RFC 3339 (" + value->dump() + ")");
  }
  return parsed;
}

bool FieldReader::boolean(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "booleanValue", false);
  if (!value->is_boolean()) {
    refuse(name, "holds a booleanValue that is no JSON boolean");
  }
  return value->get<bool>();
}

FieldReader FieldReader::map(std::string_view name) const {
  const nlohmann::json* value = value_of(name, "mapValue", false);
  static const nlohmann::json kNoFields = nlohmann::json::object();
  const auto fields = value->is_object() ? value->find("fields") : value->end();
  return FieldReader(value->is_object() && fields != value->end() ? *fields : kNoFields,
                     where_ + ", map '" + std::string(name) + "'");
}

}  // namespace docket::firestore::detail
