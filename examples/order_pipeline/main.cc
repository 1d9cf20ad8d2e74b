// The order pipeline as a program: 200 orders through heavy faults on a SQLite file in
// the current directory (order_pipeline.db, removed afterwards). Exit 0 when every
// order was invoiced exactly once. `docket demo` runs the same pipeline with options.
#include <filesystem>
#include <iostream>

#include "order_pipeline.h"

int main() {
  const std::filesystem::path db = std::filesystem::absolute("order_pipeline.db");
  const docket::examples::PipelineReport report =
      docket::examples::run_order_pipeline({.orders = 200,
                                            .store_url = "sqlite://" + db.string(),
                                            .faults = docket::examples::FaultLevel::kHeavy,
                                            .seed = 42});
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::filesystem::remove(db.string() + suffix);
  }
  std::cout << report.orders << " orders, " << report.deliveries << " deliveries ("
            << report.redeliveries << " redeliveries, " << report.duplicates << " duplicates), "
            << report.processed << " processed, " << report.skipped_duplicates
            << " skipped as duplicates, " << report.invoices << " invoices, "
            << report.duplicates_found << " invoiced twice: " << (report.ok() ? "ok" : "FAILED")
            << '\n';
  return report.ok() ? 0 : 1;
}
