#include "outbox_checks.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "docket/core/error.h"

namespace docket::bench {
namespace {

std::uint64_t count_missing(const std::vector<std::string>& from,
                            const std::vector<std::string>& in) {
  std::vector<std::string> missing;
  std::set_difference(from.begin(), from.end(), in.begin(), in.end(), std::back_inserter(missing));
  return missing.size();
}

}  // namespace

OutboxSideCheck check_outbox_side(const OutboxBench& provider, const std::string& db,
                                  std::string_view run_id, const PublishLog& log) {
  OutboxRunRows rows = provider.run_rows(db, run_id);
  std::sort(rows.ids.begin(), rows.ids.end());
  std::vector<std::string> published = log.sorted_ids();
  OutboxSideCheck check{.rows = static_cast<std::int64_t>(rows.ids.size()),
                        .done = rows.done,
                        .published = published.size()};
  published.erase(std::unique(published.begin(), published.end()), published.end());
  check.distinct = published.size();
  check.unpublished = count_missing(rows.ids, published);
  check.unknown = count_missing(published, rows.ids);
  return check;
}

void refuse_pending_rows(const OutboxBench& provider, const std::string& db) {
  if (const auto pending = provider.pending_rows(db); pending > 0) {
    throw ConfigurationError("'" + db + "' holds " + std::to_string(pending) +
                             " pending outbox messages (of an interrupted run, or of another "
                             "producer), which the bench's relays would publish too; pass a "
                             "new file");
  }
}

}  // namespace docket::bench
