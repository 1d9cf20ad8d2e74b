#include "keys/key_builder.h"

#include <charconv>

#include "docket/core/error.h"

namespace docket::keys::detail {

KeyBuilder::KeyBuilder(Provider provider, std::string_view what, const FieldLimit& limit, Mode mode)
    : provider_(provider), what_(what), limit_(limit), mode_(mode) {}

std::string KeyBuilder::describe() const {
  std::string text(provider_display_name(provider_));
  text += ' ';
  text += what_;
  return text;
}

void KeyBuilder::spill() {
  if (!spilled_) {
    spill_.assign(buffer_.data(), used_);
    spilled_ = true;
  }
}

void KeyBuilder::term_slowly(std::string_view term, std::string_view value,
                             const ByteCodec& codec) {
  if (refused_) {
    return;
  }
  const std::size_t size = value.empty() ? kNotUtf8 : append_term(value, codec);
  if (size == kNotUtf8) {
    if (mode_ == Mode::kThrow) {
      throw_unacceptable_term(describe(), term, value);
    }
    refused_ = true;
    return;
  }
  note_term_size(term, size);
}

std::size_t KeyBuilder::append_term(std::string_view value, const ByteCodec& codec) {
  // Into the buffer when it has room for every byte escaped: one pass validates and
  // writes. (A term of more than kBufferBytes cannot have it.)
  const std::size_t most = value.size() <= kBufferBytes
                               ? value.size() * ByteCodec::kMaxExpansion + ByteCodec::kWriteSlack
                               : kBufferBytes + 1;
  if (buffer_has_room(most)) {
    char* out = buffer_.data() + used_;
    const char* end = codec.write_validated(value, out);
    if (end == nullptr) {
      return kNotUtf8;
    }
    const auto size = static_cast<std::size_t>(end - out);
    used_ += size;
    return size;
  }
  const std::optional<std::size_t> size = codec.validated_encoded_size(value);
  if (!size) {
    return kNotUtf8;
  }
  const std::size_t at = spill_.size();
  spill_.resize(at + *size);
  codec.write(value, spill_.data() + at);
  return *size;
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
  std::array<char, 20> digits;  // any int64, so to_chars cannot fail
  const char* end = std::to_chars(digits.data(), digits.data() + digits.size(), value).ptr;
  const auto count = static_cast<std::size_t>(end - digits.data());
  append_verbatim(std::string_view(digits.data(), count));
  note_term_size("version", count);
}

Key KeyBuilder::finish() && {
  if (size() > limit_.bytes) {
    throw_key_too_long(provider_, what_, limit_, size(),
                       std::span<const EncodedTermSize>(terms_.data(), term_count_));
  }
  std::string value = spilled_ ? std::move(spill_) : std::string(buffer_.data(), used_);
  return Key{std::move(value), provider_, limit_.field, limit_.bytes};
}

std::optional<std::string> KeyBuilder::try_finish() && {
  if (refused_ || size() > limit_.bytes) {
    return std::nullopt;
  }
  return spilled_ ? std::move(spill_) : std::string(buffer_.data(), used_);
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
