// docket sagas list: the sagas of a saga store, filtered by status, saga type, tenant and
// time since their last save, read through SagaStore::list() a page at a time and
// bounded by --limit (saying when more match). Every check of the command line is made
// before the store is opened, so a refused command line reads nothing; a store private
// to the process (memory:) is refused as the other inspection commands refuse it.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "count_option.h"
#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/sagas/saga_id.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "duration_option.h"
#include "sagas_command.h"
#include "shared_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

// Sagas shown when --limit is not given, the most --limit takes, and the sagas read per
// SagaStore::list() request.
constexpr std::uint64_t kSagasListDefaultLimit = 100;
constexpr std::uint64_t kSagasListMaxLimit = 1'000'000;
constexpr std::size_t kSagasListPageSize = 500;

struct SagasListArgs {
  std::string store;
  std::optional<std::string> status;
  std::optional<std::string> saga_type;
  std::optional<std::string> older_than;
  std::optional<std::string> tenant;
  bool all_tenants = false;
  std::uint64_t limit = kSagasListDefaultLimit;
  bool json = false;
};

// Refuses (a usage error, exit status 2) every status but the two a saga has.
const CLI::Validator& saga_status_text() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        if (text == "active" || text == "completed") {
          return {};
        }
        return "'" + text +
               "' is not a saga status; pass active (still running) or completed (finished, "
               "kept until purged), or leave --status out to list both";
      },
      "STATUS");
  return validator;
}

const char* saga_status_name(SagaStatus status) {
  return status == SagaStatus::kCompleted ? "completed" : "active";
}

// A term as a table cell: control characters (a newline would break the table) as
// \xNN; the rest as stored (valid UTF-8, which every saga term is).
std::string saga_cell(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

// Characters a cell takes on a terminal (code points, not bytes).
std::size_t saga_cell_width(std::string_view cell) {
  return static_cast<std::size_t>(std::count_if(cell.begin(), cell.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

void print_saga_table(const std::vector<SagaSummary>& shown) {
  std::vector<std::vector<std::string>> rows = {
      {"TENANT", "SAGA TYPE", "SAGA ID", "VERSION", "STATUS", "STARTED", "UPDATED", "COMPLETED"}};
  for (const SagaSummary& s : shown) {
    rows.push_back({saga_cell(s.saga.tenant().value()), saga_cell(s.saga.saga_type()),
                    saga_cell(s.saga.saga_id()), std::to_string(s.version),
                    saga_status_name(s.status), format_timestamp(s.started_at),
                    format_timestamp(s.updated_at),
                    s.completed_at ? format_timestamp(*s.completed_at) : "-"});
  }
  std::vector<std::size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      widths[i] = std::max(widths[i], saga_cell_width(row[i]));
    }
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) {
        line += std::string(widths[i] - saga_cell_width(row[i]) + 2, ' ');
      }
    }
    std::cout << line << '\n';
  }
}

// What `make` returns, or its InvalidInputError (a term the key rules refuse: refused,
// exit status 1) with the option named first.
template <class Make>
auto checked_saga_term(std::string_view option, const Make& make) {
  try {
    return make();
  } catch (const InvalidInputError& refused) {
    throw InvalidInputError("sagas list: " + std::string(option) + ": " + refused.what());
  }
}

void run_sagas_list(const SagasListArgs& args) {
  // Every check before the store is opened: a refused command reads nothing.
  if (args.limit == 0 || args.limit > kSagasListMaxLimit) {
    throw UsageError("sagas list: --limit is " + std::to_string(args.limit) + "; give 1 to " +
                     std::to_string(kSagasListMaxLimit));
  }
  if (args.tenant && args.all_tenants) {
    throw UsageError(
        "sagas list: pass --tenant T (one tenant's sagas) or --all-tenants (every tenant's, "
        "also the default), not both");
  }
  SagaListRequest request;
  if (args.tenant) {
    request.tenant = checked_saga_term("--tenant", [&] { return TenantId(*args.tenant); });
  }
  if (args.status) {
    request.status = *args.status == "completed" ? SagaStatus::kCompleted : SagaStatus::kActive;
  }
  if (args.saga_type) {
    // The rules of every saga type (saga_id.h), checked here rather than by the store's
    // list(), which runs only once the store is open (and, on SQL, migrated).
    checked_saga_term("--type",
                      [&] { return SagaId(TenantId::default_tenant(), *args.saga_type, "-"); });
    request.saga_type = *args.saga_type;
  }
  if (args.older_than) {
    request.updated_before =
        SystemClock::instance().now() - parse_duration("--older-than", *args.older_than);
  }
  const auto store = open_saga_store(args.store);
  require_service_store("sagas list", args.store, store->capabilities(), "saga store");
  const auto [shown, more] = list_sagas(*store, request, args.limit);

  const std::string printable = printable_store_url(args.store);
  const std::string cutoff =
      request.updated_before ? format_timestamp(*request.updated_before) : std::string();
  if (args.json) {
    nlohmann::json sagas = nlohmann::json::array();
    for (const SagaSummary& summary : shown) {
      sagas.push_back(saga_summary_json(summary));
    }
    const auto or_null = [](const std::optional<std::string>& value) {
      return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
    };
    std::cout << nlohmann::json{{"store", printable},
                                {"tenant", or_null(args.tenant)},
                                {"filters",
                                 {{"status", or_null(args.status)},
                                  {"saga_type", or_null(args.saga_type)},
                                  {"older_than", or_null(args.older_than)},
                                  {"updated_before", request.updated_before
                                                         ? nlohmann::json(cutoff)
                                                         : nlohmann::json(nullptr)}}},
                                {"count", shown.size()},
                                {"more", more},
                                {"sagas", std::move(sagas)}}
                     .dump(-1, ' ', false, nlohmann::json::error_handler_t::strict)
              << '\n';
    return;
  }
  std::cout << "saga store    " << printable << '\n'
            << "tenant        " << (args.tenant ? saga_cell(*args.tenant) : "(all)") << '\n'
            << "status        " << args.status.value_or("(any)") << '\n'
            << "saga type     " << (args.saga_type ? saga_cell(*args.saga_type) : "(any)") << '\n'
            << "last saved    "
            << (args.older_than ? "before " + cutoff + " (" + *args.older_than + " ago)"
                                : std::string("(any time)"))
            << '\n'
            << "sagas         " << shown.size()
            << (more ? " shown, more match: raise --limit to see them" : "") << '\n';
  if (!shown.empty()) {
    std::cout << '\n';
    print_saga_table(shown);
  }
}

}  // namespace

SagaListing list_sagas(SagaStore& store, SagaListRequest request, std::uint64_t limit) {
  SagaListing listing;
  request.limit = static_cast<std::size_t>(
      std::min<std::uint64_t>(kSagasListPageSize, limit + 1));  // + 1: are there more?
  while (!listing.more) {
    SagaPage page = store.list(request);
    for (SagaSummary& summary : page.sagas) {
      if (listing.sagas.size() == limit) {
        listing.more = true;  // one match past the limit: enough to say there are more
        break;
      }
      listing.sagas.push_back(std::move(summary));
    }
    if (!page.next) {
      break;
    }
    request.after = std::move(page.next);
  }
  return listing;
}

nlohmann::json saga_summary_json(const SagaSummary& s) {
  return {{"tenant", s.saga.tenant().value()},
          {"saga_type", s.saga.saga_type()},
          {"saga_id", s.saga.saga_id()},
          {"version", s.version},
          {"status", saga_status_name(s.status)},
          {"started_at", format_timestamp(s.started_at)},
          {"updated_at", format_timestamp(s.updated_at)},
          {"completed_at", s.completed_at ? nlohmann::json(format_timestamp(*s.completed_at))
                                          : nlohmann::json(nullptr)}};
}

void add_sagas_list_subcommand(CLI::App& sagas_group) {
  auto args = std::make_shared<SagasListArgs>();
  CLI::App* cmd = sagas_group.add_subcommand(
      "list",
      "Sagas of a saga store with their version, status and times (not their state: "
      "`sagas show` prints one saga's), filtered by status, type, tenant and time since "
      "their last save; e.g. --status active --older-than 1h for sagas that may be stuck.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--status", args->status, "active or completed (default: both)")
      ->check(saga_status_text());
  cmd->add_option("--type,--saga-type", args->saga_type, "Only sagas of this saga type");
  cmd->add_option("--older-than", args->older_than,
                  "Only sagas not saved for this long (last saved before now - DURATION): "
                  "90s, 15m, 12h, 30d")
      ->check(duration_text());
  cmd->add_option("--tenant", args->tenant, "Only this tenant's sagas");
  cmd->add_flag("--all-tenants", args->all_tenants, "Every tenant's sagas (the default)");
  cmd->add_option("--limit", args->limit, "Sagas shown at most (1 to 1000000)")
      ->check(whole_count())
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_sagas_list(*args); });
}

}  // namespace docket::tool
