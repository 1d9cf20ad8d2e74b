#include "outbox_workload.h"

#include <algorithm>

namespace docket::bench {

std::vector<std::string> PublishLog::sorted_ids() const {
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mutex_);
    ids = ids_;
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace docket::bench
