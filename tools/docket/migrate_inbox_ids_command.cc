// docket migrate inbox-ids: the subcommand, and its offline form (--provider
// firestore|elasticsearch), which re-keys exported inbox entries from the legacy id
// {tenant}_{messageId}_{handlerType} to the id docket writes (docket/keys/inbox_key.h).
// The online form (--store) is migrate_inbox_ids_store.cc.
//
// The legacy join is ambiguous, so the tenant is recovered from each document's own
// messageId and handlerType fields, never from the id alone: whatever precedes
// "_{messageId}_{handlerType}" is the tenant. A line that fits neither shape is reported
// with its number and nothing is guessed for it; the run goes on, so one pass lists
// every problem, and exits 1 when there was any.
//
// A document is carried byte for byte but for its id: the `id` value is replaced, and
// `old_id` and the recovered `tenant` (unless the document names it already) are added
// before its closing brace. So the line is not parsed into a value and written back
// (a JSON library would collapse a repeated key, respell numbers and escapes, and has
// no value for 1e400 at all); JsonLine checks it against RFC 8259, finds where each
// member of the top-level object lies, and decodes only the strings the re-key reads.
// nlohmann's SAX interface would check the text too, but reports no byte offsets, and
// the offsets are what copying the rest verbatim needs.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/keys/inbox_key.h"
#include "migrate_command.h"
#include "provider_option.h"

namespace docket::tool {
namespace {

// Why one line was not re-keyed.
class LineRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Deeper nesting is refused rather than followed (the check recurses).
constexpr int kMaxDepth = 512;

// One member of the line's top-level object: its key, decoded, and where its value's
// text lies in the line.
struct Member {
  std::string key;
  std::size_t value_begin = 0;
  std::size_t value_end = 0;
};

// One line of JSON text, checked against RFC 8259 (well-formed UTF-8, no trailing
// text, numbers a store can hold: integers within 64 bits, others within a double's
// range) without being converted, its top-level object's members located.
// Throws LineRefused naming the first defect and its byte offset.
class JsonLine {
 public:
  explicit JsonLine(std::string_view text) : text_(text) {
    if (const std::optional<Utf8Defect> defect = find_utf8_defect(text_)) {
      throw LineRefused("is not JSON (" + describe_utf8_defect("the line", text_, *defect) + ")");
    }
    skip_space();
    if (pos_ == text_.size()) {
      fail("no value");
    }
    top_ = peek();
    if (top_ == '{') {
      object(1, &members_);
    } else {
      value(1);
    }
    skip_space();
    if (pos_ != text_.size()) {
      fail("text after the value");
    }
  }

  // What the line holds: "object", "array", "string", "number", "boolean" or "null".
  std::string_view type() const { return type_of(top_); }
  const std::vector<Member>& members() const { return members_; }
  // The offset of the top-level object's closing brace.
  std::size_t closing_brace() const { return closing_brace_; }
  std::string_view text(const Member& member) const {
    return text_.substr(member.value_begin, member.value_end - member.value_begin);
  }

  static std::string_view type_of(char first) {
    switch (first) {
      case '{':
        return "object";
      case '[':
        return "array";
      case '"':
        return "string";
      case 't':
      case 'f':
        return "boolean";
      case 'n':
        return "null";
      default:
        return "number";
    }
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  [[noreturn]] void fail(std::string_view what) const {
    throw LineRefused("is not JSON (" + std::string(what) + " at byte " + std::to_string(pos_) +
                      ")");
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  void expect(char c) {
    if (peek() != c) {
      fail(std::string("'") + c + "' expected");
    }
    ++pos_;
  }

  void value(int depth) {
    if (depth > kMaxDepth) {
      fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    switch (peek()) {
      case '{':
        object(depth, nullptr);
        return;
      case '[':
        array(depth);
        return;
      case '"':
        string();
        return;
      case 't':
        literal("true");
        return;
      case 'f':
        literal("false");
        return;
      case 'n':
        literal("null");
        return;
      default:
        number();
    }
  }

  // An object; with `members`, each member's key decoded and its value located.
  void object(int depth, std::vector<Member>* members) {
    expect('{');
    skip_space();
    if (peek() == '}') {
      closing_brace_ = pos_++;
      return;
    }
    for (;;) {
      skip_space();
      const std::size_t key_begin = pos_;
      string();
      const std::size_t key_end = pos_;
      skip_space();
      expect(':');
      skip_space();
      const std::size_t value_begin = pos_;
      value(depth + 1);
      if (members != nullptr) {
        members->push_back({.key = decode(text_.substr(key_begin, key_end - key_begin)),
                            .value_begin = value_begin,
                            .value_end = pos_});
      }
      skip_space();
      if (peek() == '}') {
        closing_brace_ = pos_++;
        return;
      }
      expect(',');
    }
  }

  void array(int depth) {
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      value(depth + 1);
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return;
      }
      expect(',');
    }
  }

  // The four hex digits of a \u escape, as a code unit.
  unsigned hex4() {
    unsigned unit = 0;
    const char* first = text_.data() + pos_;
    const auto [ptr, error] =
        std::from_chars(first, first + std::min<std::size_t>(4, text_.size() - pos_), unit, 16);
    if (error != std::errc() || ptr != first + 4) {
      fail("a \\u escape without four hex digits");
    }
    pos_ += 4;
    return unit;
  }

  void string() {
    expect('"');
    for (;;) {
      if (pos_ == text_.size()) {
        fail("an unterminated string");
      }
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return;
      }
      if (c < 0x20) {
        fail("an unescaped control character in a string");
      }
      ++pos_;
      if (c != '\\') {
        continue;
      }
      const char escaped = peek();
      ++pos_;
      if (escaped == 'u') {
        const unsigned unit = hex4();
        if (unit >= 0xDC00 && unit <= 0xDFFF) {
          fail("a \\u escape of a lone low surrogate");
        }
        if (unit >= 0xD800 && unit <= 0xDBFF) {
          if (text_.substr(pos_, 2) != "\\u") {
            fail("a \\u escape of a high surrogate without its low one");
          }
          pos_ += 2;
          const unsigned low = hex4();
          if (low < 0xDC00 || low > 0xDFFF) {
            fail("a \\u escape of a high surrogate without its low one");
          }
        }
      } else if (std::string_view("\"\\/bfnrt").find(escaped) == std::string_view::npos ||
                 escaped == '\0') {
        fail("an invalid escape in a string");
      }
    }
  }

  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) {
      fail("an invalid literal");
    }
    pos_ += word.size();
  }

  void digits() {
    if (!(peek() >= '0' && peek() <= '9')) {
      fail("a digit expected");
    }
    while (peek() >= '0' && peek() <= '9') {
      ++pos_;
    }
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and a value a store can hold.
  void number() {
    const std::size_t begin = pos_;
    if (peek() == '-') {
      ++pos_;
    }
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      digits();
    } else {
      fail("a value expected");
    }
    bool integer = true;
    if (peek() == '.') {
      ++pos_;
      digits();
      integer = false;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') {
        ++pos_;
      }
      digits();
      integer = false;
    }
    const std::string literal(text_.substr(begin, pos_ - begin));
    if (integer) {
      // A literal from_chars reads whole and in range as either type fits.
      const auto fits = [&literal](auto value) {
        const char* last = literal.data() + literal.size();
        const auto [ptr, error] = std::from_chars(literal.data(), last, value);
        return ptr == last && error == std::errc();
      };
      if (!fits(std::int64_t{}) && !fits(std::uint64_t{})) {
        throw LineRefused("holds the integer " + literal +
                          ", beyond 64 bits, which no store holds as a number (a JSON reader "
                          "would round it); export it as a string");
      }
      return;
    }
    errno = 0;
    const double value = std::strtod(literal.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(value)) {
      throw LineRefused("holds the number " + literal +
                        ", beyond a double's range, which no store holds as a number; export "
                        "it as a string");
    }
  }

  // A string token already checked, decoded.
  static std::string decode(std::string_view token) {
    return nlohmann::json::parse(token).get<std::string>();
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  char top_ = '\0';
  std::vector<Member> members_;
  std::size_t closing_brace_ = 0;
};

// The member named `name` of the line's object; nullptr when it has none. Throws
// LineRefused when it has more than one: which one holds is not for the re-key to guess.
const Member* member(const JsonLine& line, std::string_view name) {
  const Member* found = nullptr;
  for (const Member& m : line.members()) {
    if (m.key == name) {
      if (found != nullptr) {
        throw LineRefused("has the field \"" + std::string(name) +
                          "\" twice; which one holds is not clear, so nothing is guessed");
      }
      found = &m;
    }
  }
  return found;
}

// The decoded string value of the member named `name`, which must be there.
std::string string_field(const JsonLine& line, std::string_view name) {
  const Member* field = member(line, name);
  if (field == nullptr) {
    throw LineRefused("has no \"" + std::string(name) +
                      "\" field; every exported entry needs id, messageId and handlerType as "
                      "the stored document carries them");
  }
  const std::string_view text = line.text(*field);
  if (text.front() != '"') {
    throw LineRefused("its \"" + std::string(name) + "\" field is " +
                      std::string(JsonLine::type_of(text.front())) + ", not a string");
  }
  return nlohmann::json::parse(text).get<std::string>();
}

// The line re-keyed, or nullopt when its id is already the current one.
std::optional<std::string> rekeyed(keys::Provider provider, std::string_view text) {
  const JsonLine line(text);
  if (line.type() != "object") {
    throw LineRefused("is a JSON " + std::string(line.type()) +
                      ", not an object holding one exported entry");
  }
  const std::string old_id = string_field(line, "id");
  const std::string message_id = string_field(line, "messageId");
  const std::string handler_type = string_field(line, "handlerType");
  const keys::InboxIdRekey rekey =
      keys::rekey_inbox_entry_id(provider, old_id, message_id, handler_type);
  switch (rekey.outcome) {
    case keys::InboxIdRekey::Outcome::kCurrent:
      return std::nullopt;
    case keys::InboxIdRekey::Outcome::kRefused:
      throw LineRefused(rekey.reason);
    case keys::InboxIdRekey::Outcome::kRekey:
      break;
  }
  if (member(line, "old_id") != nullptr) {
    throw LineRefused("has an \"old_id\" field already; re-keying would overwrite it");
  }
  // kRekey: the id ends with "_{messageId}_{handlerType}" after a tenant.
  const std::string tenant =
      keys::recover_legacy_inbox_tenant(old_id, message_id, handler_type).value_or("");
  const Member* own_tenant = member(line, "tenant");
  if (own_tenant != nullptr) {
    const std::string_view named = line.text(*own_tenant);
    if (named.front() != '"' || nlohmann::json::parse(named).get<std::string>() != tenant) {
      throw LineRefused("names the tenant " + std::string(named) +
                        " in its own field, but its legacy id gives the tenant \"" + tenant +
                        "\"; find which is right, mend the other, and run again");
    }
  }
  const Member& id = *member(line, "id");
  std::string out;
  out.reserve(text.size() + old_id.size() + rekey.new_id.size() + tenant.size() + 32);
  out.append(text.substr(0, id.value_begin));
  out.append(nlohmann::json(rekey.new_id).dump());
  out.append(text.substr(id.value_end, line.closing_brace() - id.value_end));
  out.append(",\"old_id\":").append(nlohmann::json(old_id).dump());
  if (own_tenant == nullptr) {
    out.append(",\"tenant\":").append(nlohmann::json(tenant).dump());
  }
  out.append(text.substr(line.closing_brace()));
  return out;
}

struct Tally {
  std::size_t rekeyed = 0;
  std::size_t current = 0;
  std::size_t refused = 0;
};

void run(keys::Provider provider, std::istream& in, std::ostream& out) {
  Tally tally;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      continue;  // no document: JSON Lines files may end in blank lines
    }
    try {
      if (std::optional<std::string> result = rekeyed(provider, line)) {
        out << *result << '\n';
        ++tally.rekeyed;
      } else {
        ++tally.current;
      }
    } catch (const LineRefused& refusal) {
      std::cerr << "docket: migrate inbox-ids: line " << number << ' ' << refusal.what() << '\n';
      ++tally.refused;
    }
  }
  if (in.bad()) {
    throw InfrastructureError("migrate inbox-ids: reading standard input failed");
  }
  std::cerr << "docket: migrate inbox-ids: " << tally.rekeyed << " re-keyed, " << tally.current
            << " already on the current id (passed over), " << tally.refused << " refused\n";
  if (tally.refused > 0) {
    throw InvalidInputError("migrate inbox-ids: " + std::to_string(tally.refused) +
                            " line(s) refused, listed above; nothing was guessed for them. "
                            "Fix or remove them and run again: the others are re-keyed above");
  }
}

}  // namespace

void add_migrate_inbox_ids_subcommand(CLI::App& migrate_group) {
  struct Args {
    std::string provider;
    std::string store;
    bool dry_run = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* command = migrate_group.add_subcommand(
      "inbox-ids",
      "Re-key inbox entries from the legacy '_'-joined id: offline from an export "
      "(--provider), or online on the store (--store)");
  command->footer(
      "Offline (--provider firestore|elasticsearch): reads exported inbox documents on\n"
      "standard input, one JSON object a line, each with at least `id` (the stored id),\n"
      "`messageId` and `handlerType` as the documents carry them. For each on the legacy\n"
      "shape {tenant}_{messageId}_{handlerType} it writes the same line to standard output,\n"
      "byte for byte, but with `id` set to the current id and `old_id` (the legacy id) and\n"
      "`tenant` (the recovered tenant, unless the document names it) added at its end:\n"
      "write each under its new id, then delete the old one, with the inbox quiesced.\n"
      "Entries already on the current id are passed over (counted on stderr). A line that\n"
      "is not JSON, holds a number no store holds (an integer beyond 64 bits, a number\n"
      "beyond a double's range), repeats a field the re-key reads, names another tenant\n"
      "than its id, fits neither shape or whose id cannot be composed (e.g. over\n"
      "Elasticsearch's 512 bytes) is reported with its number and left out; the run goes\n"
      "on with the lines after it, and the exit status is then 1.\n"
      "\n"
      "Online (--store firestore://..., with the inbox quiesced): the same for every entry\n"
      "of the store's inbox collections, each moved by one atomic commit (the new id\n"
      "created, the old one deleted), so an interrupted run is finished by the next one.\n"
      "--dry-run counts without writing. Refused entries are listed and left as they are;\n"
      "the exit status is then 1.");
  CLI::Option* provider = command
                              ->add_option("--provider", args->provider,
                                           "Offline, from an export: firestore or elasticsearch")
                              ->check(CLI::IsMember({"firestore", "elasticsearch"}));
  CLI::Option* store = command->add_option(
      "--store", args->store, "Online, on the store: a firestore:// URL, the inbox quiesced");
  CLI::Option* dry_run =
      command->add_flag("--dry-run", args->dry_run, "Online: count what would move, write nothing");
  provider->excludes(store);
  dry_run->needs(store);
  command->require_option(1, 2);
  command->callback([args, provider, store] {
    if (*store) {
      run_migrate_inbox_ids_online(args->store, args->dry_run);
    } else if (*provider) {
      run(provider_named(args->provider), std::cin, std::cout);
    } else {
      throw CLI::RequiredError("--provider or --store");
    }
  });
}

}  // namespace docket::tool
