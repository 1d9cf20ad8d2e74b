// docket migrate inbox-ids --store URL [--dry-run]: the re-key of legacy inbox ids,
// online, on the store itself (docket/stores/inbox_id_migration.h), with progress on stderr
// and a summary; exit 1 when an entry was refused (each listed with its id and why).
#include <unistd.h>

#include <cstdint>
#include <iostream>
#include <string>

#include "docket/core/error.h"
#include "docket/stores/inbox_id_migration.h"
#include "docket/stores/printable_store_url.h"
#include "migrate_command.h"

namespace docket::tool {

void run_migrate_inbox_ids_online(const std::string& store, bool dry_run) {
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  const std::string printable = printable_store_url(store);
  std::cerr << "docket: migrate inbox-ids: " << (dry_run ? "dry run on " : "re-keying ")
            << printable << '\n';
  const InboxIdMigration report = migrate_inbox_ids(
      store, {.dry_run = dry_run, .on_progress = [&](std::uint64_t examined) {
                if (terminal) {
                  std::cerr << "\r  " << examined << " entries examined" << std::flush;
                }
              }});
  if (terminal) {
    std::cerr << '\n';
  }
  for (const InboxIdRefusal& refusal : report.refused) {
    std::cerr << "docket: migrate inbox-ids: " << refusal.where << ": the entry " << refusal.id
              << ' ' << refusal.reason << '\n';
  }
  std::cerr << "docket: migrate inbox-ids: " << report.examined << " examined, " << report.rekeyed
            << (dry_run ? " to re-key" : " re-keyed") << ", " << report.current
            << " already on the current id, " << report.refused.size() << " refused"
            << (dry_run ? " (dry run: nothing written)" : "") << '\n';
  if (!report.refused.empty()) {
    throw InvalidInputError("migrate inbox-ids: " + std::to_string(report.refused.size()) +
                            " entr" + (report.refused.size() == 1 ? "y" : "ies") +
                            " refused, listed above, and left as they are; nothing was "
                            "guessed for them. Mend them and run again: the run is resumable");
  }
}

}  // namespace docket::tool
