#include "docket/inbox/checkpoint_store.h"

#include <limits>

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

}  // namespace docket
