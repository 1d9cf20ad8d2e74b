// The simplest possible statement of what the key codecs must do, for the tests that
// compare docket's optimised encoders with it: UTF-8 well-formedness straight from the
// Unicode standard's table of well-formed byte sequences (Table 3-7), each provider's
// escapes as docs/keys.md lists them, one byte at a time; and random terms that are
// valid UTF-8, invalid UTF-8, or a valid one with a single defect.
#ifndef DOCKET_TESTS_UNIT_KEYS_REFERENCE_CODEC_H_
#define DOCKET_TESTS_UNIT_KEYS_REFERENCE_CODEC_H_

#include <array>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>

namespace docket::keys::reference {

// Unicode 15, Table 3-7: the well-formed UTF-8 byte sequences.
inline bool valid_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned lead = byte(i);
    // The allowed range of each byte after the lead, by lead.
    std::array<std::array<unsigned, 2>, 3> next{};
    std::size_t length = 1;
    if (lead <= 0x7F) {
      length = 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2, next[0] = {0x80, 0xBF};
    } else if (lead == 0xE0) {
      length = 3, next[0] = {0xA0, 0xBF}, next[1] = {0x80, 0xBF};
    } else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) {
      length = 3, next[0] = {0x80, 0xBF}, next[1] = {0x80, 0xBF};
    } else if (lead == 0xED) {
      length = 3, next[0] = {0x80, 0x9F}, next[1] = {0x80, 0xBF};
    } else if (lead == 0xF0) {
      length = 4, next[0] = {0x90, 0xBF}, next[1] = {0x80, 0xBF}, next[2] = {0x80, 0xBF};
    } else if (lead >= 0xF1 && lead <= 0xF3) {
      length = 4, next[0] = {0x80, 0xBF}, next[1] = {0x80, 0xBF}, next[2] = {0x80, 0xBF};
    } else if (lead == 0xF4) {
      length = 4, next[0] = {0x80, 0x8F}, next[1] = {0x80, 0xBF}, next[2] = {0x80, 0xBF};
    } else {
      return false;
    }
    for (std::size_t k = 1; k < length; ++k) {
      if (i + k >= text.size() || byte(i + k) < next[k - 1][0] || byte(i + k) > next[k - 1][1]) {
        return false;
      }
    }
    i += length;
  }
  return true;
}

// docs/keys.md, "Escapes per provider".
enum class Escapes {
  kFull,             // Firestore, Elasticsearch: all but A-Z a-z 0-9 - . _ ~
  kFirestoreSagaId,  // kFull and '_'
  kCosmos,           // % : / \ ? # space, 0x00-0x1F, 0x7F
  kNarrow,           // MongoDB, Redis, DynamoDB: % :
  kNone,             // a term stored as a field of its own
};

inline bool escapes(Escapes codec, unsigned char b) {
  const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                          (b >= '0' && b <= '9') || b == '-' || b == '.' || b == '_' || b == '~';
  const bool narrow = b == '%' || b == ':';
  switch (codec) {
    case Escapes::kFull:
      return !unreserved;
    case Escapes::kFirestoreSagaId:
      return !unreserved || b == '_';
    case Escapes::kCosmos:
      return narrow || b == '/' || b == '\\' || b == '?' || b == '#' || b == ' ' || b <= 0x1F ||
             b == 0x7F;
    case Escapes::kNarrow:
      return narrow;
    case Escapes::kNone:
      return false;
  }
  return true;
}

inline std::string encode(Escapes codec, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (escapes(codec, b)) {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 0x0F];
    } else {
      out += c;
    }
  }
  return out;
}

// DOCKET_PROPERTY_SEED when set, else a fresh one; print it with every failure.
inline std::uint64_t seed() {
  if (const char* text = std::getenv("DOCKET_PROPERTY_SEED")) {
    return std::strtoull(text, nullptr, 10);
  }
  std::random_device device;
  return (std::uint64_t{device()} << 32) | device();
}

class TermGenerator {
 public:
  explicit TermGenerator(std::uint64_t seed) : random_(seed) {}

  // Lengths 0 to about 200 bytes: around every multiple of 16 and past the tail.
  std::string next() {
    switch (below(4)) {
      case 0:
        return random_bytes(below(80));
      case 1:
        return with_defect(valid(below(70)));
      default:
        return valid(below(70));
    }
  }

  std::string valid(std::size_t characters) {
    std::string text;
    for (std::size_t c = 0; c < characters; ++c) {
      append_utf8(text, code_point());
    }
    return text;
  }

  // `text` with one defect that makes it ill-formed (almost always: a truncation may
  // happen to fall on a character boundary).
  std::string with_defect(std::string text) {
    static constexpr std::string_view kBad[] = {"\x80",
                                                "\xBF",
                                                "\xC0\x80",
                                                "\xC1\xBF",
                                                "\xC2",
                                                "\xE2\x82",
                                                "\xE0\x80\x80",
                                                "\xE0\x9F\xBF",
                                                "\xED\xA0\x80",
                                                "\xED\xBF\xBF",
                                                "\xF0\x80\x80\x80",
                                                "\xF0\x8F\xBF\xBF",
                                                "\xF4\x90\x80\x80",
                                                "\xF5\x80\x80\x80",
                                                "\xF8",
                                                "\xFF",
                                                "\xF0\x9D\x84",
                                                "\xC3\xC3",
                                                "\xE2\x28\xA1"};
    const std::size_t at = below(text.size() + 1);
    switch (below(3)) {
      case 0:
        return text.substr(0, at) + std::string(kBad[below(std::size(kBad))]) + text.substr(at);
      case 1:
        return text.substr(0, at);  // cut, maybe inside a character
      default:
        text.insert(at, 1, static_cast<char>(0x80 + below(0x80)));
        return text;
    }
  }

  std::size_t below(std::size_t bound) {
    return bound == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, bound - 1)(random_);
  }

 private:
  std::string random_bytes(std::size_t size) {
    std::string text(size, '\0');
    for (char& c : text) {
      c = static_cast<char>(below(256));
    }
    return text;
  }

  std::uint32_t code_point() {
    // The separators and escapes of every codec, control characters, and the
    // terminating NUL, which is a byte like any other here.
    static constexpr char kAscii[] = "%:_/\\?# ~-.azAZ09\x01\x1F\x7F";
    static constexpr std::uint32_t kEdges[] = {0x80,   0x7FF,   0x800,   0xD7FF,   0xE000,
                                               0xFFFD, 0xFFFF,  0x10000, 0x10FFFF, 0xFC,
                                               0x20AC, 0x1D11E, 0x4E2D};
    switch (below(6)) {
      case 0:
        return static_cast<unsigned char>(kAscii[below(sizeof kAscii)]);
      case 1:
        return static_cast<std::uint32_t>(below(0x80));
      case 2:
        return static_cast<std::uint32_t>(0x80 + below(0x800 - 0x80));
      case 3: {
        const auto cp = static_cast<std::uint32_t>(0x800 + below(0x10000 - 0x800));
        return cp >= 0xD800 && cp <= 0xDFFF ? cp - 0x800 : cp;
      }
      case 4:
        return static_cast<std::uint32_t>(0x10000 + below(0x110000 - 0x10000));
      default:
        return kEdges[below(std::size(kEdges))];
    }
  }

  static void append_utf8(std::string& text, std::uint32_t cp) {
    const auto put = [&](std::uint32_t b) { text += static_cast<char>(b); };
    if (cp < 0x80) {
      put(cp);
    } else if (cp < 0x800) {
      put(0xC0 | (cp >> 6)), put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      put(0xE0 | (cp >> 12)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
    } else {
      put(0xF0 | (cp >> 18)), put(0x80 | ((cp >> 12) & 0x3F)), put(0x80 | ((cp >> 6) & 0x3F)),
          put(0x80 | (cp & 0x3F));
    }
  }

  std::mt19937_64 random_;
};

}  // namespace docket::keys::reference

#endif  // DOCKET_TESTS_UNIT_KEYS_REFERENCE_CODEC_H_
