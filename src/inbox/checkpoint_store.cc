#include "docket/inbox/checkpoint_store.h"

#include <cstddef>
#include <limits>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_options.h"
#include "inbox/text_checks.h"

namespace docket {
namespace {

void require_consumer_id(std::string_view consumer_id) {
  if (auto problem = consumer_id_problem(consumer_id)) {
    throw InvalidInputError("checkpoint store: " + *problem +
                            "; pass the consumer id the inbox options use");
  }
}

void validate_list_request(const CheckpointListRequest& request) {
  if (request.limit == 0 || request.limit > kMaxCheckpointPageSize) {
    throw InvalidInputError("checkpoint list page size " + std::to_string(request.limit) +
                            " is outside 1.." + std::to_string(kMaxCheckpointPageSize) +
                            ". Read further pages through CheckpointPage::next instead.");
  }
  if (request.consumer_id) {
    require_consumer_id(*request.consumer_id);
  }
  // A position of the same listing is of its tenant and consumer (a provider's read
  // may rely on it).
  if (request.after &&
      ((request.tenant && request.after->tenant != *request.tenant) ||
       (request.consumer_id && request.after->consumer_id != *request.consumer_id))) {
    throw InvalidInputError("checkpoint list is to resume after consumer '" +
                            request.after->consumer_id + "' of tenant '" +
                            request.after->tenant.value() +
                            "', which is of another tenant or consumer than the listing's. Pass "
                            "the `next` of the previous page of the same listing.");
  }
}

}  // namespace

std::optional<std::string> CheckpointStore::get(std::string_view consumer_id) {
  require_consumer_id(consumer_id);
  return do_get(TenantScope::current_or_untenanted().value(), consumer_id);
}

void CheckpointStore::set(std::string_view consumer_id, std::string_view position) {
  require_consumer_id(consumer_id);
  inbox::require_text("checkpoint position", position, std::numeric_limits<std::size_t>::max(),
                      /*allow_blank=*/false,
                      "encode the feed's cursor as non-blank UTF-8 text (e.g. a sequence number)");
  do_set(TenantScope::current_or_untenanted().value(), consumer_id, position);
}

CheckpointPage CheckpointStore::list(const CheckpointListRequest& request) {
  validate_list_request(request);
  CheckpointPage page{.entries = do_list(request), .next = std::nullopt};
  if (page.entries.size() > request.limit) {
    page.entries.erase(page.entries.begin() + static_cast<std::ptrdiff_t>(request.limit),
                       page.entries.end());
    page.next = CheckpointListPosition{.tenant = page.entries.back().tenant,
                                       .consumer_id = page.entries.back().consumer_id};
  }
  return page;
}

}  // namespace docket
