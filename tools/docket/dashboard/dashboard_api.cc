#include "dashboard/dashboard_api.h"

#include <algorithm>
#include <exception>
#include <span>
#include <stdexcept>
#include <utility>

#include "credential_filter.h"
#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "failed_entries.h"
#include "outbox_command_support.h"
#include "projections_command.h"
#include "sagas_command.h"
#include "shared_store.h"

namespace docket::tool {
namespace {

constexpr std::string_view kDashboardCommand = "dashboard";

// A request the API refuses before any store is read: its status and why.
struct DashboardRefusal : std::runtime_error {
  DashboardRefusal(int http_status, const std::string& message)
      : std::runtime_error(message), status(http_status) {}
  int status;
};

// The body of an action, parsed: a JSON object whose `fields` are non-empty strings.
nlohmann::json action_body(const std::string& body, std::initializer_list<const char*> fields) {
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
  std::string names;
  for (const char* field : fields) {
    names += (names.empty() ? "" : ", ") + std::string(field);
  }
  const std::string expected = "the body must be a JSON object with the strings " + names;
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw DashboardRefusal(400, expected + "; nothing was changed");
  }
  for (const char* field : fields) {
    if (!parsed.contains(field) || !parsed[field].is_string() ||
        parsed[field].get<std::string>().empty()) {
      throw DashboardRefusal(400, expected + " (" + field +
                                      " is missing, empty or not a string); nothing was changed");
    }
  }
  return parsed;
}

}  // namespace

DashboardApi::DashboardApi(std::string store, std::optional<std::string> events)
    : store_(std::move(store)), events_(std::move(events)) {
  std::vector<std::string> arguments{"--store=" + store_};
  if (events_) {
    arguments.push_back("--events=" + *events_);
  }
  std::vector<char*> pointers;
  for (std::string& argument : arguments) {
    pointers.push_back(argument.data());
  }
  credentials_ = credentials_given(std::span<char* const>(pointers.data(), pointers.size()));
}

HttpResponse DashboardApi::json_answer(int status, const nlohmann::json& value) const {
  // replace: a stored text that is not UTF-8 never fails an answer.
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return {.status = status,
          .body = without_credentials(text, credentials_),
          .headers = {{"Cache-Control", "no-store"}}};
}

template <class Body>
HttpResponse DashboardApi::guarded(const Body& body) const {
  const auto refused = [&](int status, const std::string& message) {
    return json_answer(status, {{"error", message}});
  };
  try {
    return json_answer(200, body());
  } catch (const DashboardRefusal& refusal) {
    return refused(refusal.status, refusal.what());
  } catch (const NotParkedError& error) {
    return refused(error.exists() ? 409 : 404, error.what());
  } catch (const NotFailedError& error) {
    return refused(error.exists() ? 409 : 404, error.what());
  } catch (const InvalidInputError& error) {
    return refused(400, error.what());
  } catch (const ConfigurationError& error) {
    return json_answer(501, {{"error", error.what()}, {"unavailable", true}});
  } catch (const InfrastructureError& error) {
    return refused(503, std::string("the store cannot be read: ") + error.what());
  } catch (const std::exception& error) {
    return refused(500, std::string("unexpected failure: ") + error.what());
  }
}

HttpResponse DashboardApi::answer(const HttpRequest& request) const {
  struct Route {
    const char* path;
    const char* method;
    std::function<nlohmann::json()> body;
  };
  const std::vector<Route> routes = {
      {"/api/outbox/stats", "GET", [&] { return outbox_stats(); }},
      {"/api/outbox/parked", "GET", [&] { return parked(); }},
      {"/api/outbox/replay", "POST", [&] { return repair(request.body, true); }},
      {"/api/outbox/skip", "POST", [&] { return repair(request.body, false); }},
      {"/api/inbox/failed", "GET", [&] { return failed(); }},
      {"/api/inbox/retry", "POST", [&] { return retry(request.body); }},
      {"/api/sagas", "GET", [&] { return sagas(); }},
      {"/api/projections", "GET", [&] { return projections(); }},
  };
  for (const Route& route : routes) {
    if (request.path != route.path) {
      continue;
    }
    if (request.method != route.method) {
      HttpResponse response =
          json_answer(405, {{"error", request.path + " takes " + route.method + " only"}});
      response.headers.emplace_back("Allow", route.method);
      return response;
    }
    return guarded(route.body);
  }
  return json_answer(404, {{"error", "no API path " + escape_invalid_utf8(request.path) +
                                         "; docs/dashboard.md lists them"}});
}

nlohmann::json DashboardApi::outbox_stats() const {
  const auto store = open_shared_outbox(kDashboardCommand, store_);
  const Timestamp now = SystemClock::instance().now();
  nlohmann::json out = outbox_stats_json(store->stats(now), now);
  out["store"] = printable_store_url(store_);
  out["at"] = format_timestamp(now);
  return out;
}

nlohmann::json DashboardApi::parked() const {
  const auto store = open_shared_outbox(kDashboardCommand, store_);
  ParkedFilterOptions options;
  options.limit = kDashboardListLimit;
  const ParkedFilter filter(kDashboardCommand, options, SystemClock::instance().now());
  nlohmann::json messages = nlohmann::json::array();
  bool more = false;
  for_each_parked(*store, filter, [&](const OutboxRecord& record) {
    if (messages.size() == kDashboardListLimit) {
      more = true;
      return false;
    }
    messages.push_back(parked_json(record));
    return true;
  });
  return {{"count", messages.size()}, {"more", more}, {"messages", std::move(messages)}};
}

nlohmann::json DashboardApi::repair(const std::string& body, bool replay) const {
  const std::string id = action_body(body, {"id"})["id"].get<std::string>();
  check_message_id(kDashboardCommand, id);
  const auto store = open_shared_outbox(kDashboardCommand, store_);
  const OutboxRecord before =
      repair_parked_message(*store, replay ? "replay" : "skip", id,
                            replay ? ParkedRepair::kReplay : ParkedRepair::kSkip, false);
  return {{"id", id},
          {replay ? "replayed" : "skipped", true},
          {"message", parked_json(before)},
          {"result", replay ? "pending again, attempts reset, due now"
                            : "done without being published; its ordering key is released"}};
}

nlohmann::json DashboardApi::failed() const {
  const auto store = open_claim_inbox_store(store_);
  require_service_store(kDashboardCommand, store_, store->capabilities(), "claim inbox");
  nlohmann::json entries = nlohmann::json::array();
  bool more = false;
  for_each_failed_entry(*store, std::nullopt, std::nullopt, [&](ClaimEntry& entry) {
    if (entries.size() == kDashboardListLimit) {
      more = true;
      return false;
    }
    entries.push_back(failed_entry_json(entry));
    return true;
  });
  return {{"count", entries.size()}, {"more", more}, {"entries", std::move(entries)}};
}

nlohmann::json DashboardApi::retry(const std::string& body) const {
  const nlohmann::json parsed = action_body(body, {"tenant", "message_id", "handler_type"});
  for (const char* field : {"tenant", "message_id", "handler_type"}) {
    require_valid_utf8(std::string("retry: ") + field, parsed[field].get<std::string>());
  }
  const ClaimKey key(TenantId(parsed["tenant"].get<std::string>()),
                     parsed["message_id"].get<std::string>(),
                     parsed["handler_type"].get<std::string>());
  const auto store = open_claim_inbox_store(store_);
  require_service_store(kDashboardCommand, store_, store->capabilities(), "claim inbox");
  retry_failed_entry(*store, "retry", key, false);
  return {{"retried", true},
          {"entry",
           {{"tenant", key.tenant().value()},
            {"message_id", key.message_id()},
            {"handler_type", key.handler_type()}}},
          {"result", "due for a retry now (whatever retries failed entries picks it up)"}};
}

nlohmann::json DashboardApi::sagas() const {
  const auto store = open_saga_store(store_);
  require_service_store(kDashboardCommand, store_, store->capabilities(), "saga store");
  nlohmann::json counts = nlohmann::json::object();
  nlohmann::json active = nlohmann::json::array();
  for (const SagaStatus status : {SagaStatus::kActive, SagaStatus::kCompleted}) {
    SagaListRequest request;
    request.status = status;
    const SagaListing listing = list_sagas(*store, request, kDashboardSagaCountLimit);
    const std::string name = status == SagaStatus::kActive ? "active" : "completed";
    counts[name] = {{"count", listing.sagas.size()}, {"more", listing.more}};
    if (status == SagaStatus::kActive) {
      for (std::size_t i = 0; i < listing.sagas.size() && i < kDashboardListLimit; ++i) {
        active.push_back(saga_summary_json(listing.sagas[i]));
      }
    }
  }
  return {{"by_status", std::move(counts)}, {"active", std::move(active)}};
}

nlohmann::json DashboardApi::projections() const {
  ProjectionStores stores = open_projection_stores(kDashboardCommand, store_, events_);
  const auto [rows, more] =
      list_projection_status(stores, {}, kDashboardListLimit, SystemClock::instance().now());
  nlohmann::json listed = nlohmann::json::array();
  for (const ProjectionStatusRow& row : rows) {
    listed.push_back(projection_status_json(row));
  }
  return {{"events", stores.events_url},
          {"count", rows.size()},
          {"more", more},
          {"projections", std::move(listed)}};
}

}  // namespace docket::tool
