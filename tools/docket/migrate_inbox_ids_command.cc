// docket migrate inbox-ids --provider firestore|elasticsearch: re-keys exported inbox
// entries, offline, from the legacy id {tenant}_{messageId}_{handlerType} to the id
// docket writes (docket/keys/inbox_key.h).
//
// The legacy join is ambiguous, so the tenant is recovered from each document's own
// messageId and handlerType fields, never from the id alone: whatever precedes
// "_{messageId}_{handlerType}" is the tenant. A line that fits neither shape is reported
// with its number and nothing is guessed for it; the run goes on, so one pass lists
// every problem, and exits 1 when there was any.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "docket/error.h"
#include "docket/keys/inbox_key.h"
#include "migrate_command.h"
#include "provider_option.h"

namespace docket::tool {
namespace {

using Document = nlohmann::ordered_json;  // keeps the exported fields in their order

// Why one line was not re-keyed.
class LineRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string json_quoted(std::string_view text) {
  return nlohmann::json(text).dump();
}

// JSON reads an integer literal beyond 64 bits as a double, so writing the document back
// would round it: such a line is refused rather than changed. Scans the number
// literals of a line that parsed as JSON.
void refuse_integers_beyond_64_bits(std::string_view line) {
  bool in_string = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) {
      continue;
    }
    const std::size_t end = line.find_first_not_of("-+0123456789.eE", i);
    const std::string_view literal = line.substr(i, end - i);
    i = end == std::string_view::npos ? line.size() : end - 1;
    if (literal.find_first_of(".eE") != std::string_view::npos) {
      continue;  // a double: written back as the same double
    }
    // A literal from_chars reads whole and in range as either type fits.
    const auto fits = [literal](auto value) {
      const char* last = literal.data() + literal.size();
      const auto [ptr, error] = std::from_chars(literal.data(), last, value);
      return ptr == last && error == std::errc();
    };
    if (!fits(std::int64_t{}) && !fits(std::uint64_t{})) {
      throw LineRefused("holds the integer " + std::string(literal) +
                        ", beyond 64 bits, which would be written back rounded; export it as "
                        "a string");
    }
  }
}

const std::string& string_field(const Document& document, const std::string& name) {
  const auto it = document.find(name);
  if (it == document.end()) {
    throw LineRefused("has no \"" + name +
                      "\" field; every exported entry needs id, messageId and handlerType as "
                      "the stored document carries them");
  }
  if (!it->is_string()) {
    throw LineRefused("its \"" + name + "\" field is " + std::string(it->type_name()) +
                      ", not a string");
  }
  return it->get_ref<const std::string&>();
}

// The document re-keyed, or nullopt when its id is already the current one.
std::optional<Document> rekeyed(keys::Provider provider, Document document) {
  const std::string old_id = string_field(document, "id");
  const std::string& message_id = string_field(document, "messageId");
  const std::string& handler_type = string_field(document, "handlerType");

  if (const auto terms = keys::parse_inbox_entry_id(provider, old_id)) {
    if (terms->message_id == message_id && terms->handler_type == handler_type) {
      return std::nullopt;
    }
    throw LineRefused("id " + json_quoted(old_id) + " is on the current shape but names message " +
                      json_quoted(terms->message_id) + " and handler " +
                      json_quoted(terms->handler_type) + ", while the document's fields say " +
                      json_quoted(message_id) + " and " + json_quoted(handler_type) +
                      "; check the export");
  }
  const std::optional<std::string> tenant =
      keys::recover_legacy_inbox_tenant(old_id, message_id, handler_type);
  if (!tenant) {
    throw LineRefused("id " + json_quoted(old_id) +
                      " is on neither shape: not the current id, and not the legacy "
                      "{tenant}_{messageId}_{handlerType} with this document's messageId " +
                      json_quoted(message_id) + " and handlerType " + json_quoted(handler_type));
  }
  if (document.contains("old_id")) {
    throw LineRefused("has an \"old_id\" field already; re-keying would overwrite it");
  }
  try {
    document["id"] =
        keys::compose_inbox_entry_id(
            provider, {.tenant = *tenant, .message_id = message_id, .handler_type = handler_type})
            .value;
  } catch (const Error& error) {
    throw LineRefused("the recovered tenant " + json_quoted(*tenant) +
                      " gives no valid id: " + error.what());
  }
  document["old_id"] = old_id;
  return document;
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
    if (line.empty()) {
      continue;  // no document: JSON Lines files may end in blank lines
    }
    try {
      Document document;
      try {
        document = Document::parse(line);
      } catch (const nlohmann::json::parse_error& error) {
        throw LineRefused(std::string("is not JSON (") + error.what() + ")");
      }
      refuse_integers_beyond_64_bits(line);
      if (!document.is_object()) {
        throw LineRefused("is a JSON " + std::string(document.type_name()) +
                          ", not an object holding one exported entry");
      }
      if (std::optional<Document> result = rekeyed(provider, std::move(document))) {
        out << result->dump() << '\n';
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
  auto provider = std::make_shared<std::string>();
  CLI::App* command = migrate_group.add_subcommand(
      "inbox-ids", "Re-key exported inbox entries from the legacy '_'-joined id, offline");
  command->footer(
      "Reads exported inbox documents on standard input, one JSON object a line, each with\n"
      "at least `id` (the stored id), `messageId` and `handlerType` as the documents carry\n"
      "them. For each on the legacy shape {tenant}_{messageId}_{handlerType} it writes the\n"
      "same object to standard output with `id` set to the current id and `old_id` to the\n"
      "legacy one: write each under its new id, then delete the old one, with the inbox\n"
      "quiesced. Entries already on the current id are passed over (counted on stderr).\n"
      "A line that is not JSON, fits neither shape or whose id cannot be composed (e.g.\n"
      "over Elasticsearch's 512 bytes) is reported with its number, and the exit status\n"
      "is 1. Numbers are written back as the same 64-bit integers or doubles.");
  add_provider_option(*command, *provider, "firestore or elasticsearch")
      ->check(CLI::IsMember({"firestore", "elasticsearch"}));
  command->callback([provider] { run(provider_named(*provider), std::cin, std::cout); });
}

}  // namespace docket::tool
