#include "providers/dynamodb/dynamodb_item_size.h"

#include <cctype>
#include <charconv>
#include <string>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace {

[[noreturn]] void refuse(std::string_view attribute, const std::string& problem) {
  throw InvalidInputError("DynamoDB item attribute '" + std::string(attribute) + "': " + problem +
                          "; write attribute values as DynamoDB JSON, such as {\"S\": \"text\"} "
                          "or {\"N\": \"42\"}");
}

const std::string& string_payload(const nlohmann::json& payload, std::string_view attribute,
                                  std::string_view type) {
  if (!payload.is_string()) {
    refuse(attribute, "a value of type " + std::string(type) + " must be a JSON string");
  }
  return payload.get_ref<const std::string&>();
}

// A DynamoDB number's size, as DynamoDB Local counts it (checked byte for byte): zero
// is 1 byte; any other number is 1 byte plus one per base-100 digit of its magnitude
// (digit pairs aligned on the decimal point, leading and trailing zero pairs dropped),
// plus 1 when negative. So 5 and 12 are 2 bytes, 1.5 and 120 are 3, -1.5 is 4. (The
// developer guide's "1 byte per two significant digits, + 1" is this, approximately.)
std::size_t number_size(const std::string& text, std::string_view attribute) {
  const auto not_a_number = [&] { refuse(attribute, "'" + text + "' is not a number"); };
  const bool negative = !text.empty() && text[0] == '-';
  std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  std::string digits;
  long long point = 0;  // digits before the decimal point, before the exponent
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      digits.push_back(c);
      point += seen_point ? 0 : 1;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) {
    not_a_number();
  }
  if (i < text.size()) {  // an exponent, and nothing else, may follow
    if (text[i] != 'e' && text[i] != 'E') {
      not_a_number();
    }
    const char* first = text.data() + i + 1;
    const char* last = text.data() + text.size();
    if (first < last && *first == '+') {
      ++first;  // from_chars takes a '-' but no '+'
      if (first < last && *first == '-') {
        not_a_number();
      }
    }
    long long exponent = 0;
    const auto [end, status] = std::from_chars(first, last, exponent);
    if (status != std::errc() || end != last || first == last || exponent > 100'000 ||
        exponent < -100'000) {
      not_a_number();
    }
    point += exponent;
  }
  const std::size_t lead = digits.find_first_not_of('0');
  if (lead == std::string::npos) {
    return 1;  // zero, whatever its sign or notation
  }
  point -= static_cast<long long>(lead);
  const std::size_t significant = digits.find_last_not_of('0') + 1 - lead;
  const std::size_t pad =
      static_cast<std::size_t>(((point % 2) + 2) % 2);  // align pairs on the point
  return (pad + significant + 1) / 2 + 1 + (negative ? 1 : 0);
}

std::size_t base64_size(const std::string& text, std::string_view attribute) {
  std::size_t padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool data = std::isalnum(c) != 0 || c == '+' || c == '/';
    if (c == '=' && i + 2 >= text.size()) {
      ++padding;
    } else if (!data || padding > 0) {
      refuse(attribute,
             "a value of type B must be base64; found '" + std::string(1, text[i]) + "'");
    }
  }
  if (text.size() % 4 != 0) {
    refuse(attribute, "a value of type B must be base64 in groups of 4 characters; it has " +
                          std::to_string(text.size()));
  }
  return text.size() / 4 * 3 - padding;
}

const nlohmann::json& set_payload(const nlohmann::json& payload, std::string_view attribute,
                                  std::string_view type) {
  if (!payload.is_array() || payload.empty()) {
    refuse(attribute, "a value of type " + std::string(type) + " must be a non-empty JSON array");
  }
  return payload;
}

}  // namespace

std::size_t attribute_value_size(const nlohmann::json& value, std::string_view attribute) {
  if (!value.is_object() || value.size() != 1) {
    refuse(attribute, "a value must be a JSON object with exactly one type key");
  }
  const auto only = value.begin();
  const std::string& type = only.key();
  const nlohmann::json& payload = only.value();
  if (type == "S") {
    return string_payload(payload, attribute, type).size();
  }
  if (type == "N") {
    return number_size(string_payload(payload, attribute, type), attribute);
  }
  if (type == "B") {
    return base64_size(string_payload(payload, attribute, type), attribute);
  }
  if (type == "BOOL" || type == "NULL") {
    if (!payload.is_boolean()) {
      refuse(attribute, "a value of type " + type + " must be a JSON boolean");
    }
    return 1;
  }
  if (type == "SS" || type == "NS" || type == "BS") {
    std::size_t size = 0;
    const std::string element_type = type.substr(0, 1);
    for (const nlohmann::json& element : set_payload(payload, attribute, type)) {
      size += attribute_value_size(nlohmann::json{{element_type, element}}, attribute);
    }
    return size;
  }
  if (type == "L") {
    if (!payload.is_array()) {
      refuse(attribute, "a value of type L must be a JSON array");
    }
    std::size_t size = 3;
    for (std::size_t i = 0; i < payload.size(); ++i) {
      size += 1 + attribute_value_size(payload[i],
                                       std::string(attribute) + "[" + std::to_string(i) + "]");
    }
    return size;
  }
  if (type == "M") {
    if (!payload.is_object()) {
      refuse(attribute, "a value of type M must be a JSON object");
    }
    std::size_t size = 3;
    for (const auto& [name, element] : payload.items()) {
      size += 1 + name.size() + attribute_value_size(element, std::string(attribute) + "." + name);
    }
    return size;
  }
  refuse(attribute,
         "'" + type + "' is not a DynamoDB type (S, N, B, BOOL, NULL, SS, NS, BS, L, M)");
}

std::size_t item_size(const nlohmann::json& item) {
  if (!item.is_object()) {
    throw InvalidInputError("a DynamoDB item must be a JSON object of attributes, got " +
                            std::string(item.type_name()));
  }
  std::size_t size = 0;
  for (const auto& [name, value] : item.items()) {
    size += name.size() + attribute_value_size(value, name);
  }
  return size;
}

}  // namespace docket::dynamodb::detail
