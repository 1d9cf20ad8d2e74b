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
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "docket/core/error.h"
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
  const keys::InboxIdRekey rekey = keys::rekey_inbox_entry_id(
      provider, old_id, string_field(document, "messageId"), string_field(document, "handlerType"));
  switch (rekey.outcome) {
    case keys::InboxIdRekey::Outcome::kCurrent:
      return std::nullopt;
    case keys::InboxIdRekey::Outcome::kRefused:
      throw LineRefused(rekey.reason);
    case keys::InboxIdRekey::Outcome::kRekey:
      break;
  }
  if (document.contains("old_id")) {
    throw LineRefused("has an \"old_id\" field already; re-keying would overwrite it");
  }
  document["id"] = rekey.new_id;
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
      "shape {tenant}_{messageId}_{handlerType} it writes the same object to standard\n"
      "output with `id` set to the current id and `old_id` to the legacy one: write each\n"
      "under its new id, then delete the old one, with the inbox quiesced. Entries already\n"
      "on the current id are passed over (counted on stderr). A line that is not JSON, fits\n"
      "neither shape or whose id cannot be composed (e.g. over Elasticsearch's 512 bytes)\n"
      "is reported with its number, and the exit status is 1. Numbers are written back as\n"
      "the same 64-bit integers or doubles.\n"
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
