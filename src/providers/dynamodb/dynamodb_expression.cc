#include "providers/dynamodb/dynamodb_expression.h"

#include <cctype>
#include <string>

namespace docket::dynamodb::detail {
namespace {

bool name_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace

nlohmann::json attribute_names(std::initializer_list<std::string_view> expressions) {
  nlohmann::json names = nlohmann::json::object();
  for (const std::string_view expression : expressions) {
    for (std::size_t at = expression.find('#'); at != std::string_view::npos;
         at = expression.find('#', at + 1)) {
      std::size_t end = at + 1;
      while (end < expression.size() && name_character(expression[end])) {
        ++end;
      }
      if (end > at + 1) {
        names[std::string(expression.substr(at, end - at))] =
            std::string(expression.substr(at + 1, end - at - 1));
      }
    }
  }
  return names;
}

}  // namespace docket::dynamodb::detail
