#include "keys/key_builder.h"

#include <charconv>

#include "docket/error.h"

namespace docket::keys::detail {

KeyBuilder::KeyBuilder(Provider provider, std::string_view what, const FieldLimit& limit, Mode mode)
    : provider_(provider), what_(what), limit_(limit), mode_(mode) {}

std::string KeyBuilder::describe() const {
  std::string text(provider_display_name(provider_));
  text += ' ';
  text += what_;
  return text;
}

void KeyBuilder::term(std::string_view term, std::string_view value) {
  this->term(term, value, term_escapes(provider_));
}

void KeyBuilder::term(std::string_view term, std::string_view value, const ByteSet& escapes) {
  if (refused_) {
    return;
  }
  if (!is_acceptable_term(value)) {
    if (mode_ == Mode::kThrow) {
      throw_unacceptable_term(describe(), term, value);
    }
    refused_ = true;
    return;
  }
  const std::size_t before = value_.size();
  append_escaped(value, escapes, value_);
  if (term_count_ < terms_.size()) {
    terms_[term_count_++] = EncodedTermSize{term, value_.size() - before};
  }
}

void KeyBuilder::version(std::int64_t value) {
  if (refused_) {
    return;
  }
  if (value < 0) {
    if (mode_ == Mode::kThrow) {
      throw InvalidKeyTermError("version",
                                "Cannot compose the " + describe() + ": the version is " +
                                    std::to_string(value) +
                                    "; event versions start at 0. Pass the event's own version.");
    }
    refused_ = true;
    return;
  }
  const std::size_t before = value_.size();
  value_ += std::to_string(value);
  if (term_count_ < terms_.size()) {
    terms_[term_count_++] = EncodedTermSize{"version", value_.size() - before};
  }
}

Key KeyBuilder::finish() && {
  if (value_.size() > limit_.bytes) {
    throw_key_too_long(provider_, what_, limit_, value_.size(),
                       std::span<const EncodedTermSize>(terms_.data(), term_count_));
  }
  return Key{std::move(value_), provider_, limit_.field, limit_.bytes};
}

std::optional<std::string> KeyBuilder::try_finish() && {
  if (refused_ || value_.size() > limit_.bytes) {
    return std::nullopt;
  }
  return std::move(value_);
}

bool consume_prefix(std::string_view& text, std::string_view prefix) noexcept {
  if (!text.starts_with(prefix)) {
    return false;
  }
  text.remove_prefix(prefix.size());
  return true;
}

std::optional<std::int64_t> parse_version(std::string_view text) noexcept {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end || value < 0) {
    return std::nullopt;
  }
  // Leading zeros are caught by the caller's re-composition, which writes canonical
  // decimal; they are refused here too so that the helper stands alone.
  if (text.size() > 1 && text.front() == '0') {
    return std::nullopt;
  }
  return value;
}

}  // namespace docket::keys::detail
