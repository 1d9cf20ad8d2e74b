#include "docket/eventsourcing/typed_aggregate.h"

#include <string>

#include "core/readable_type_name.h"
#include "docket/core/error.h"
#include "docket/core/event_type.h"
#include "docket/core/utf8.h"

namespace docket::typed_aggregate_internal {
namespace {

std::string listed(std::span<const std::string_view> names) {
  std::string text;
  for (const std::string_view name : names) {
    text += (text.empty() ? "'" : ", '") + std::string(name) + "'";
  }
  return text;
}

}  // namespace

void check_event_names(std::string_view aggregate_type, std::span<const std::string_view> names,
                       std::span<const std::type_info* const> types) {
  const std::string at = "typed aggregate '" + std::string(aggregate_type) + "': ";
  if (aggregate_type.empty()) {
    throw ConfigurationError(
        "typed aggregate: the aggregate type is empty; name it, e.g. "
        "\"account\" (it is a term of every stream's key)");
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string type = core::readable_type_name(*types[i]);
    if (names[i].empty() || names[i].size() > kMaxEventTypeBytes || !is_valid_utf8(names[i])) {
      throw ConfigurationError(at + "event type " + type + " is named '" + std::string(names[i]) +
                               "'; a name is 1 to " + std::to_string(kMaxEventTypeBytes) +
                               " bytes of UTF-8: rename it");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) {
        throw ConfigurationError(at + "event types " + core::readable_type_name(*types[j]) +
                                 " and " + type + " are both named '" + std::string(names[i]) +
                                 "'; a stored event must name one C++ type: rename one");
      }
    }
  }
}

void throw_unknown_event(const RecordedEvent& event, std::span<const std::string_view> known) {
  throw InvalidInputError(event.stream.describe() + " holds event type '" + event.type +
                          "' at version " + std::to_string(event.version) +
                          ", which the typed aggregate does not list (it knows " + listed(known) +
                          "); add its C++ type to the aggregate's event types, with an evolve "
                          "for it");
}

void throw_undecodable_event(const RecordedEvent& event, const std::type_info& type,
                             std::string_view problem) {
  throw InvalidInputError(
      event.stream.describe() + ": the event at version " + std::to_string(event.version) + " ('" +
      event.type + "') could not be decoded as " + core::readable_type_name(type) + ": " +
      std::string(problem) + "; fix the type's codec, or migrate the stored payload");
}

}  // namespace docket::typed_aggregate_internal
