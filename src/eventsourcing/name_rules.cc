#include "eventsourcing/name_rules.h"

#include <string>

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket::eventsourcing {

void require_name(std::string_view what, std::string_view value, std::size_t max_bytes,
                  std::string_view advice) {
  if (value.empty()) {
    throw InvalidInputError(std::string(what) + " is empty. " + std::string(advice));
  }
  require_optional_name(what, value, max_bytes, advice);
}

void require_optional_name(std::string_view what, std::string_view value, std::size_t max_bytes,
                           std::string_view advice) {
  if (auto defect = find_utf8_defect(value)) {
    throw InvalidInputError(describe_utf8_defect(what, value, *defect) +
                            ". Pass it as UTF-8; docket never repairs text. " +
                            std::string(advice));
  }
  if (value.size() > max_bytes) {
    throw InvalidInputError(std::string(what) + " is " + std::to_string(value.size()) +
                            " bytes long; the maximum is " + std::to_string(max_bytes) +
                            " bytes, and docket never truncates. " + std::string(advice));
  }
}

}  // namespace docket::eventsourcing
