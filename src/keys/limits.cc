#include "keys/limits.h"

#include <string>

#include "docket/core/error.h"

namespace docket::keys::detail {

void throw_key_too_long(Provider provider, std::string_view what, const FieldLimit& limit,
                        std::size_t actual_bytes, std::span<const EncodedTermSize> terms) {
  const std::string_view display = provider_display_name(provider);
  std::string message = "The ";
  message += display;
  message += ' ';
  message += what;
  message += " would be " + std::to_string(actual_bytes) + " bytes, over the " +
             std::to_string(limit.bytes) + "-byte limit " + std::string(display) + " sets for a " +
             std::string(limit.field) + ".";

  const EncodedTermSize* longest = nullptr;
  std::size_t term_bytes = 0;
  std::string sizes;
  for (const EncodedTermSize& term : terms) {
    if (!sizes.empty()) {
      sizes += ", ";
    }
    sizes += std::string(term.term) + " " + std::to_string(term.bytes);
    term_bytes += term.bytes;
    if (longest == nullptr || term.bytes > longest->bytes) {
      longest = &term;
    }
  }
  message += " Encoded term sizes in bytes: " + sizes + " (plus " +
             std::to_string(actual_bytes - term_bytes) + " bytes of prefix and separators).";
  if (longest != nullptr) {
    message += " Shorten the " + std::string(longest->term) + " (the longest term) by at least " +
               std::to_string(actual_bytes - limit.bytes) +
               " encoded bytes; characters outside A-Z a-z 0-9 - . _ ~ may take 3 bytes "
               "each once escaped.";
  }
  message +=
      " docket never truncates keys, because two different messages could then share one "
      "key.";
  throw KeyTooLongError(std::string(display), limit.bytes, actual_bytes, message);
}

}  // namespace docket::keys::detail
