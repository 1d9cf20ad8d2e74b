#include "sqlite_claim_effect.h"

#include "docket/core/uuid.h"

namespace docket::bench {

ClaimEffectSqlite::ClaimEffectSqlite(const std::string& path, std::string_view run_id)
    : run_id_(run_id),
      db_(path, kRawBusyTimeout),
      insert_(db_, std::string(kClaimEffectInsertSql)) {}

void ClaimEffectSqlite::write(std::string_view message_id) {
  const std::string id = Uuid::v7().to_string();
  insert_.bind_text(1, id);
  insert_.bind_text(2, run_id_);
  insert_.bind_text(3, message_id);
  insert_.bind_text(4, kClaimEffectBody);
  insert_.run();
}

}  // namespace docket::bench
