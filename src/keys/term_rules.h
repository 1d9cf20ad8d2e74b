// Internal: what a key term must be, and how each provider escapes it. Every composer
// in src/keys goes through these rules; nothing else decides them.
//
// Thread-safety: pure functions over constants.
#ifndef DOCKET_SRC_KEYS_TERM_RULES_H_
#define DOCKET_SRC_KEYS_TERM_RULES_H_

#include <string_view>

#include "docket/keys/provider.h"
#include "keys/byte_codec.h"

namespace docket::keys::detail {

// What `provider` escapes in every term of every key it stores (see term_rules.cc for
// each provider's reasons).
const ByteCodec& term_codec(Provider provider) noexcept;

// Firestore saga ids: full percent-encoding plus '_', because the Firestore saga shape
// joins saga id and saga type with a raw '_'.
const ByteCodec& firestore_saga_id_codec() noexcept;

// Nothing escaped: a term stored as a whole field of its own (the saga type key).
const ByteCodec& verbatim_codec() noexcept;

// Throws InvalidKeyTermError for a term that may not be a key term: every term must be
// non-empty and well-formed UTF-8. `what` names the key being composed ("Firestore
// inbox entry id"), `term` the term ("message id").
[[noreturn]] void throw_unacceptable_term(std::string_view what, std::string_view term,
                                          std::string_view value);

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_TERM_RULES_H_
