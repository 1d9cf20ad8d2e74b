#include "providers/postgres/postgres_text_array.h"

namespace docket::postgres::detail {

std::string text_array_literal(std::span<const std::string> elements) {
  std::string literal = "{";
  for (const auto& element : elements) {
    if (literal.size() > 1) {
      literal += ',';
    }
    literal += '"';
    for (const char c : element) {
      if (c == '"' || c == '\\') {
        literal += '\\';
      }
      literal += c;
    }
    literal += '"';
  }
  literal += '}';
  return literal;
}

}  // namespace docket::postgres::detail
