#include "providers/cosmos/cosmos_query_merge.h"

#include <array>
#include <cctype>
#include <utility>

namespace docket::cosmos::detail {
namespace {

// `sql` upper-cased with every string literal ('...' or "...", backslash escapes) blanked,
// so that a word inside a literal is never read as a clause.
std::string clauses_of(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      out += ' ';
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += ' ';
    } else {
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '@' || c == '.';
}

// Whether `text` holds `word` as a whole word, followed (after blanks) by `next` when given.
bool has_word(const std::string& text, std::string_view word, std::string_view next = {}) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at > 0 && word_char(text[at - 1])) || (end < text.size() && word_char(text[end]))) {
      continue;
    }
    if (next.empty()) {
      return true;
    }
    std::size_t after = end;
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after])) != 0) {
      ++after;
    }
    if (text.compare(after, next.size(), next) == 0) {
      return true;
    }
  }
  return false;
}

// The rank of a value's type in the ORDER BY order (the header comment).
int type_rank(const nlohmann::json* value) {
  if (value == nullptr) {
    return 0;
  }
  switch (value->type()) {
    case nlohmann::json::value_t::null:
      return 1;
    case nlohmann::json::value_t::boolean:
      return 2;
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return 3;
    case nlohmann::json::value_t::string:
      return 4;
    case nlohmann::json::value_t::array:
      return 5;
    default:
      return 6;
  }
}

template <typename T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace

bool needs_query_plan(std::string_view sql) {
  const std::string text = clauses_of(sql);
  if (has_word(text, "ORDER", "BY") || has_word(text, "GROUP", "BY")) {
    return true;
  }
  for (const std::string_view word : {"TOP", "OFFSET", "DISTINCT"}) {
    if (has_word(text, word)) {
      return true;
    }
  }
  for (const std::string_view aggregate : {"COUNT", "MIN", "MAX", "SUM", "AVG"}) {
    if (has_word(text, aggregate, "(")) {
      return true;
    }
  }
  return false;
}

int compare_order_values(const nlohmann::json* a, const nlohmann::json* b) {
  const int rank = three_way(type_rank(a), type_rank(b));
  if (rank != 0 || a == nullptr || b == nullptr) {
    return rank;
  }
  if (a->is_boolean()) {
    return three_way(a->get<bool>(), b->get<bool>());
  }
  if (a->is_number()) {
    if (a->is_number_integer() && b->is_number_integer()) {
      return three_way(a->get<std::int64_t>(), b->get<std::int64_t>());
    }
    return three_way(a->get<double>(), b->get<double>());
  }
  if (a->is_string()) {
    return three_way(a->get_ref<const std::string&>(), b->get_ref<const std::string&>());
  }
  return 0;  // null, arrays, objects: docket orders by none of them
}

const nlohmann::json* order_value(const nlohmann::json& result, const OrderBy& order) {
  const nlohmann::json* at = &result;
  std::string_view rest = order.path;
  while (!rest.empty()) {
    const std::size_t dot = rest.find('.');
    const std::string name(rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    if (!at->is_object()) {
      return nullptr;
    }
    const auto found = at->find(name);
    if (found == at->end()) {
      return nullptr;
    }
    at = &*found;
  }
  return at;
}

std::vector<nlohmann::json> merge_ordered(std::vector<std::vector<nlohmann::json>> runs,
                                          const OrderBy& order, std::size_t limit) {
  std::vector<nlohmann::json> merged;
  std::vector<std::size_t> next(runs.size(), 0);
  while (merged.size() < limit) {
    // The run whose head orders first; the lowest such run on a tie. A handful of runs
    // (one per partition key range): a linear scan beats a heap's bookkeeping.
    std::size_t best = runs.size();
    for (std::size_t run = 0; run < runs.size(); ++run) {
      if (next[run] >= runs[run].size()) {
        continue;
      }
      if (best == runs.size()) {
        best = run;
        continue;
      }
      int sign = compare_order_values(order_value(runs[run][next[run]], order),
                                      order_value(runs[best][next[best]], order));
      if (order.descending) {
        sign = -sign;
      }
      if (sign < 0) {
        best = run;
      }
    }
    if (best == runs.size()) {
      break;
    }
    merged.push_back(std::move(runs[best][next[best]++]));
  }
  return merged;
}

}  // namespace docket::cosmos::detail
