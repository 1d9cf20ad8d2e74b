#include "bench_store.h"

#include "docket/core/uuid.h"

namespace docket::bench {

std::string new_run_id() {
  return "docket-bench-" + Uuid::v4().to_string().substr(0, 8);
}

}  // namespace docket::bench
