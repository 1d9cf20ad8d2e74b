// Internal: what a key term must be, and how each provider escapes it. Every composer
// in src/keys goes through these rules; nothing else decides them.
//
// Thread-safety: pure functions over constants.
#ifndef DOCKET_SRC_KEYS_TERM_RULES_H_
#define DOCKET_SRC_KEYS_TERM_RULES_H_

#include <array>
#include <string>
#include <string_view>

#include "docket/keys/provider.h"

namespace docket::keys::detail {

// The bytes a codec escapes as %XX. Every set used for a key term contains '%' (so a
// '%' in a key always begins an escape) and ':' (so a raw ':' is always a separator);
// that is what makes percent_decode() the inverse of every codec.
class ByteSet {
 public:
  constexpr ByteSet() = default;

  // Every byte except RFC 3986's unreserved A-Z a-z 0-9 - . _ ~.
  static constexpr ByteSet all_but_unreserved() {
    ByteSet set;
    for (int b = 0; b < 256; ++b) {
      const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                              (b >= '0' && b <= '9') || b == '-' || b == '.' || b == '_' ||
                              b == '~';
      set.bits_[static_cast<std::size_t>(b)] = !unreserved;
    }
    return set;
  }

  constexpr ByteSet with(std::string_view bytes) const {
    ByteSet set = *this;
    for (char c : bytes) {
      set.bits_[static_cast<unsigned char>(c)] = true;
    }
    return set;
  }

  constexpr ByteSet with_range(unsigned char first, unsigned char last) const {
    ByteSet set = *this;
    for (unsigned b = first; b <= last; ++b) {
      set.bits_[b] = true;
    }
    return set;
  }

  constexpr bool contains(unsigned char byte) const { return bits_[byte]; }

 private:
  std::array<bool, 256> bits_{};
};

// Appends `bytes` to `out`, each byte in `escaped` as %XX (upper-case hex).
void append_escaped(std::string_view bytes, const ByteSet& escaped, std::string& out);

// What `provider` escapes in every term of every key it stores (see term_rules.cc for
// each provider's reasons).
const ByteSet& term_escapes(Provider provider) noexcept;

// Firestore saga ids: full percent-encoding plus '_', because the Firestore saga shape
// joins saga id and saga type with a raw '_'.
const ByteSet& firestore_saga_id_escapes() noexcept;

// True when `value` may be a key term: non-empty and well-formed UTF-8.
bool is_acceptable_term(std::string_view value) noexcept;

// Throws InvalidKeyTermError for a term is_acceptable_term() refuses. `what` names the
// key being composed ("Firestore inbox entry id"), `term` the term ("message id").
[[noreturn]] void throw_unacceptable_term(std::string_view what, std::string_view term,
                                          std::string_view value);

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_TERM_RULES_H_
