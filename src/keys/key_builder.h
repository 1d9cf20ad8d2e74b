// Internal: assembles one key from constants and escaped terms, enforcing the term
// rules and the field's limit. Each key shape is written once, as a function that
// feeds a KeyBuilder; composing runs it in kThrow mode, parsing re-runs it in kTry mode
// over the decoded terms and compares the result with the input byte for byte, so that
// parse is the exact inverse of compose and accepts only canonical keys.
//
// The key is written into a buffer inside the builder (on the caller's stack), each
// term validated and escaped in one pass, and the finished key is copied into a string
// allocated once at its exact size. A term that might not fit what is left of the
// buffer (only keys of kBufferBytes or more, which no document store accepts) moves
// the key to a string, which then grows by each piece's exact size.
//
// Thread-safety: a KeyBuilder is used by one thread; it owns its state.
#ifndef DOCKET_SRC_KEYS_KEY_BUILDER_H_
#define DOCKET_SRC_KEYS_KEY_BUILDER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/key.h"
#include "docket/keys/provider.h"
#include "docket/keys/term_codec.h"
#include "keys/limits.h"
#include "keys/term_rules.h"

namespace docket::keys::detail {

// The separator between segments of every key docket composes.
inline constexpr char kSeparator = ':';
inline constexpr std::string_view kSeparatorText = ":";

// The tenant segment's constant marker: every stream, snapshot and saga key begins
// (after a provider's own constant prefix) with "t:{tenant}:".
inline constexpr std::string_view kTenantMarker = "t:";

class KeyBuilder {
 public:
  enum class Mode {
    kThrow,  // refusals throw InvalidKeyTermError / KeyTooLongError
    kTry,    // refusals are recorded; try_finish() returns nullopt
  };

  // `what` names the key for messages, e.g. "inbox entry id".
  KeyBuilder(Provider provider, std::string_view what, const FieldLimit& limit, Mode mode);
  KeyBuilder(const KeyBuilder&) = delete;
  KeyBuilder& operator=(const KeyBuilder&) = delete;

  // Appends constant text (a prefix or a separator) verbatim.
  void constant(std::string_view text) {
    if (!refused_) {
      append_verbatim(text);
    }
  }

  // Validates `value` as the term named `term` and appends it escaped by `codec` (the
  // provider's term codec unless given).
  void term(std::string_view term, std::string_view value) {
    this->term(term, value, term_codec(provider_));
  }
  void term(std::string_view term, std::string_view value, const ByteCodec& codec) {
    // The usual case here, inline, with one call (into the codec's kernel): a term that
    // fits what is left of the buffer with every byte escaped. Anything else, and a
    // term the codec refuses, goes to term_slowly(), which decides from scratch.
    if (!refused_ && !spilled_ && !value.empty() && value.size() <= kMostBufferedTerm &&
        value.size() * ByteCodec::kMaxExpansion + ByteCodec::kWriteSlack <= kBufferBytes - used_) {
      char* const out = buffer_.data() + used_;
      if (const char* const end = codec.write_validated(value, out)) {
        const auto size = static_cast<std::size_t>(end - out);
        used_ += size;
        note_term_size(term, size);
        return;
      }
    }
    term_slowly(term, value, codec);
  }

  // Appends a non-negative version in canonical decimal (no sign, no leading zeros).
  void version(std::int64_t value);

  // kThrow mode: the key, or KeyTooLongError when it exceeds the field's limit.
  Key finish() &&;

  // kTry mode: the key, or nullopt when a term was refused or the key is too long.
  std::optional<std::string> try_finish() &&;

 private:
  static constexpr std::size_t kBufferBytes = 8192;
  // Longer terms never fit the buffer escaped (and the test above cannot overflow).
  static constexpr std::size_t kMostBufferedTerm = kBufferBytes / ByteCodec::kMaxExpansion;

  std::string describe() const;  // "Firestore inbox entry id"
  std::size_t size() const noexcept { return spilled_ ? spill_.size() : used_; }
  // Room for `bytes` more in the buffer; when there is none, the key moves to spill_.
  bool buffer_has_room(std::size_t bytes) {
    if (!spilled_ && bytes <= kBufferBytes - used_) {
      return true;
    }
    spill();
    return false;
  }
  void spill();  // moves the key to spill_ (once)
  void append_verbatim(std::string_view text) {
    if (buffer_has_room(text.size())) {
      // Constants are a few bytes: a loop beats a call to memcpy.
      char* out = buffer_.data() + used_;
      for (const char c : text) {
        *out++ = c;
      }
      used_ += text.size();
    } else {
      spill_ += text;
    }
  }
  // Appends `value` escaped by `codec`: its escaped size, or kNotUtf8 (nothing kept)
  // when it is not well-formed UTF-8. (Not std::optional, for write_validated()'s
  // reason.)
  static constexpr std::size_t kNotUtf8 = static_cast<std::size_t>(-1);
  std::size_t append_term(std::string_view value, const ByteCodec& codec);
  // term() for every other case: a refused or empty term, a term the codec refuses (it
  // throws or records the refusal), a term past the buffer's room (the key spills).
  void term_slowly(std::string_view term, std::string_view value, const ByteCodec& codec);
  void note_term_size(std::string_view term, std::size_t size) {
    if (term_count_ < terms_.size()) {
      terms_[term_count_++] = EncodedTermSize{term, size};
    }
  }

  Provider provider_;
  std::string_view what_;
  FieldLimit limit_;
  Mode mode_;
  bool refused_ = false;
  bool spilled_ = false;  // the key is in spill_, not in buffer_
  std::size_t used_ = 0;  // bytes of buffer_ written
  std::array<EncodedTermSize, 5> terms_;
  std::size_t term_count_ = 0;
  std::string spill_;
  std::array<char, kBufferBytes> buffer_;  // written before it is read, so not cleared
};

// Parsing helpers. Each returns nullopt/false for input no composer writes.

// Removes `prefix` from the front of `text`; false when `text` does not start with it.
bool consume_prefix(std::string_view& text, std::string_view prefix) noexcept;

// Splits `text` on `separator` into exactly N pieces.
template <std::size_t N>
std::optional<std::array<std::string_view, N>> split_exact(std::string_view text,
                                                           char separator) noexcept {
  std::array<std::string_view, N> parts;
  for (std::size_t i = 0; i + 1 < N; ++i) {
    const std::size_t at = text.find(separator);
    if (at == std::string_view::npos) {
      return std::nullopt;
    }
    parts[i] = text.substr(0, at);
    text.remove_prefix(at + 1);
  }
  if (text.find(separator) != std::string_view::npos) {
    return std::nullopt;
  }
  parts[N - 1] = text;
  return parts;
}

// percent_decode() of every piece; nullopt when one holds a malformed escape.
template <std::size_t N>
std::optional<std::array<std::string, N>> decode_all(const std::array<std::string_view, N>& parts) {
  std::array<std::string, N> decoded;
  for (std::size_t i = 0; i < N; ++i) {
    std::optional<std::string> term = percent_decode(parts[i]);
    if (!term) {
      return std::nullopt;
    }
    decoded[i] = std::move(*term);
  }
  return decoded;
}

// A canonical non-negative decimal int64 ("0", "17"; not "007", "-1", "+1").
std::optional<std::int64_t> parse_version(std::string_view text) noexcept;

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_KEY_BUILDER_H_
