#include "failed_entries.h"

#include <utility>

namespace docket::tool {
namespace {

constexpr std::size_t kPageSize = 500;

}  // namespace

void for_each_failed_entry(ClaimInboxStore& store, const std::optional<TenantId>& tenant,
                           const std::optional<std::string>& error_like,
                           const std::function<bool(ClaimEntry&)>& visit) {
  ClaimPageRequest request{.tenant = tenant, .status = ClaimStatus::kFailed, .limit = kPageSize};
  while (true) {
    ClaimPage page = store.entries(request);
    for (ClaimEntry& entry : page.entries) {
      if (error_like &&
          (!entry.last_error || entry.last_error->find(*error_like) == std::string::npos)) {
        continue;
      }
      if (!visit(entry)) {
        return;
      }
    }
    if (!page.next) {
      return;
    }
    request.after = std::move(page.next);
  }
}

}  // namespace docket::tool
