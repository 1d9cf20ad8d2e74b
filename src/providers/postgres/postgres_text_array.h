// Binding a list of strings as one PostgreSQL text[] parameter: the array's text form,
// every element double-quoted with `"` and `\` backslash-escaped, so that any text
// (commas, braces, quotes, spaces, the word NULL) comes back exactly as given.
// Bind it as text and cast in SQL: `unnest($1::text[])`.
//
// Thread-safety: pure function.
#ifndef DOCKET_PROVIDERS_POSTGRES_TEXT_ARRAY_H_
#define DOCKET_PROVIDERS_POSTGRES_TEXT_ARRAY_H_

#include <span>
#include <string>

namespace docket::postgres::detail {

// `{"a","b\"c"}` for {a, b"c}; `{}` for none.
std::string text_array_literal(std::span<const std::string> elements);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_TEXT_ARRAY_H_
