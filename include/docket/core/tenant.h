// Tenant identity and the ambient tenant scope.
//
// Every stored record of docket belongs to a tenant. Two values are special:
//   "__default__"    a real tenant: what a single-tenant host uses. Allowed anywhere.
//   "__untenanted__" the reserved sentinel a store records when no tenant scope is
//                    active. It is never accepted as a real tenant name.
//
// Thread-safety: TenantId is an immutable value type. TenantScope is thread-local:
// each thread has its own stack of scopes, and a scope must be destroyed on the thread
// that created it (it is neither copyable nor movable; destroying it on another thread
// aborts the process rather than leave a dangling scope behind).
#ifndef DOCKET_CORE_TENANT_H_
#define DOCKET_CORE_TENANT_H_

#include <compare>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docket {

inline constexpr std::string_view kDefaultTenant = "__default__";
inline constexpr std::string_view kUntenantedSentinel = "__untenanted__";

// Longest tenant id accepted, in bytes. Tenant ids are key terms on every provider.
inline constexpr std::size_t kMaxTenantIdBytes = 256;

// A validated tenant id: non-blank, valid UTF-8, at most kMaxTenantIdBytes bytes.
class TenantId {
 public:
  // Validates `value` as a real tenant name. Throws InvalidInputError when it is
  // blank (empty or only white space), not valid UTF-8, longer than
  // kMaxTenantIdBytes, or equal to the reserved "__untenanted__".
  explicit TenantId(std::string_view value);

  // The single-tenant default, "__default__".
  static TenantId default_tenant();

  // The reserved sentinel "__untenanted__", for stores recording that no tenant scope
  // was active. Not constructible through the public constructor.
  static TenantId untenanted();

  // A tenant as a store recorded it: the sentinel "__untenanted__" is accepted, every
  // other value is validated as by the constructor (InvalidInputError otherwise).
  static TenantId from_stored(std::string_view value);

  const std::string& value() const noexcept { return value_; }
  bool is_untenanted() const noexcept { return value_ == kUntenantedSentinel; }

  friend bool operator==(const TenantId&, const TenantId&) = default;
  friend auto operator<=>(const TenantId&, const TenantId&) = default;

 private:
  struct Unchecked {};
  TenantId(Unchecked, std::string_view value) : value_(value) {}

  std::string value_;
};

// Makes `tenant` the ambient tenant of the calling thread until destruction, when the
// previous ambient tenant (or none) is restored. A scope of TenantId::untenanted()
// makes what is written inside it untenanted again, inside an outer tenant's scope
// (what a consumer does with a message recorded outside any scope). Scopes nest, and are restored
// also when an exception unwinds through them. A scope that ends out of order (held in a
// unique_ptr, say) is unlinked; the scopes opened inside it stay active.
class TenantScope {
 public:
  explicit TenantScope(TenantId tenant);
  ~TenantScope();

  TenantScope(const TenantScope&) = delete;
  TenantScope& operator=(const TenantScope&) = delete;

  // The innermost active scope's tenant on this thread, or nullopt (also inside an
  // untenanted scope).
  static std::optional<TenantId> current();

  // current(), or the "__untenanted__" sentinel when no scope is active: what a store
  // records as the tenant of a write made outside any scope.
  static TenantId current_or_untenanted();

 private:
  TenantScope* previous_;
  TenantId tenant_;
};

}  // namespace docket

#endif  // DOCKET_CORE_TENANT_H_
