// The JSON API `docket dashboard`'s page reads and acts through, each answer built by
// the functions the commands use (outbox_command_support.h, failed_entries.h,
// sagas_command.h, projections_command.h), so that the page shows what `docket outbox
// stats`, `outbox list --status parked`, `inbox failed`, `sagas list` and `projections
// status` print, and acts as `outbox replay --id`, `outbox skip` and `inbox retry` do:
//
//   GET  /api/outbox/stats       outbox_stats_json, with store and at
//   GET  /api/outbox/parked      the oldest kDashboardListLimit parked messages
//   POST /api/outbox/replay      {"id": ID}
//   POST /api/outbox/skip        {"id": ID}
//   GET  /api/inbox/failed       the first kDashboardListLimit failed claim entries
//   POST /api/inbox/retry        {"tenant": T, "message_id": M, "handler_type": H}
//   GET  /api/sagas              counts by status, the oldest active sagas
//   GET  /api/projections        each consumer's checkpoint and lag
//
// Each request opens the stores it needs and closes them, so a store that went down
// and came back is read again without a restart. Answers: 200; 400 for a body that is
// not the JSON asked for or a term the key rules refuse; 404 for an id or key the store
// does not hold; 409 for a message not parked or an entry not failed (nothing changed);
// 501 for a store the provider does not offer; 503 with the store's error when it
// cannot be reached or read. Every text is passed through without_credentials for the
// credentials of the store URLs, and every URL shown is printable_store_url's.
//
// Thread-safety: const members, safe from many threads at once (each request opens
// stores of its own).
#ifndef DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_API_H_
#define DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_API_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dashboard/http_server.h"

namespace docket::tool {

// Parked messages, failed entries, sagas and consumers listed at most, per section.
inline constexpr std::size_t kDashboardListLimit = 100;
// Sagas counted per status at most (a count past it shows as "500+").
inline constexpr std::size_t kDashboardSagaCountLimit = 500;

class DashboardApi {
 public:
  DashboardApi(std::string store, std::optional<std::string> events);

  // The answer to an /api/ request other than /api/session (404 for an unknown path,
  // 405 for a method the path does not take).
  HttpResponse answer(const HttpRequest& request) const;

 private:
  template <class Body>
  HttpResponse guarded(const Body& body) const;
  HttpResponse json_answer(int status, const nlohmann::json& value) const;

  nlohmann::json outbox_stats() const;
  nlohmann::json parked() const;
  nlohmann::json repair(const std::string& body, bool replay) const;
  nlohmann::json failed() const;
  nlohmann::json retry(const std::string& body) const;
  nlohmann::json sagas() const;
  nlohmann::json projections() const;

  std::string store_;
  std::optional<std::string> events_;
  std::vector<std::string> credentials_;  // of store_ and events_, for without_credentials
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_API_H_
