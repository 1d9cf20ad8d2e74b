// The identity of one saga instance: (tenant, saga type, saga id).
//
// As for event streams, the tenant is part of the identity: two tenants that
// correlate to the same saga id (an order number, say) have two sagas, each with its
// own state and version; no call naming one tenant reaches the other's.
//
// Invariant: a SagaId exists only with valid terms (checked at construction).
//
// Thread-safety: immutable value type.
#ifndef DOCKET_SAGAS_SAGA_ID_H_
#define DOCKET_SAGAS_SAGA_ID_H_

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>

#include "docket/core/tenant.h"

namespace docket {

// Longest saga type and saga id accepted, in bytes (terms of every saga key).
inline constexpr std::size_t kMaxSagaTypeBytes = 256;
inline constexpr std::size_t kMaxSagaIdBytes = 512;

class SagaId {
 public:
  // Throws InvalidInputError naming the term when the saga type or id is empty, not
  // valid UTF-8, or longer than its maximum.
  SagaId(TenantId tenant, std::string_view saga_type, std::string_view saga_id);

  const TenantId& tenant() const noexcept { return tenant_; }
  const std::string& saga_type() const noexcept { return saga_type_; }
  const std::string& saga_id() const noexcept { return saga_id_; }

  // "saga (tenant 't', saga type 'checkout', saga id 'O-1')", for messages.
  std::string describe() const;

  friend bool operator==(const SagaId&, const SagaId&) = default;
  friend auto operator<=>(const SagaId&, const SagaId&) = default;

 private:
  TenantId tenant_;
  std::string saga_type_;
  std::string saga_id_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_ID_H_
