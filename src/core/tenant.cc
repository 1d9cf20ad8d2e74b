#include "docket/core/tenant.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket {
namespace {

// The innermost TenantScope of this thread; each scope links to the one it shadows.
thread_local TenantScope* innermost_scope = nullptr;

// Unicode White_Space (the set .NET's char.IsWhiteSpace and most "is blank" checks
// use), so that a tenant made of no-break or ideographic spaces is refused as blank.
bool is_white_space(std::uint32_t cp) noexcept {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

// `text` must be well-formed UTF-8.
bool is_blank(std::string_view text) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char lead = p[i];
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    std::uint32_t cp = length == 1   ? lead
                       : length == 2 ? lead & 0x1Fu
                       : length == 3 ? lead & 0x0Fu
                                     : lead & 0x07u;
    for (std::size_t k = 1; k < length; ++k) {
      cp = (cp << 6) | (p[i + k] & 0x3Fu);
    }
    if (!is_white_space(cp)) {
      return false;
    }
    i += length;
  }
  return true;
}

void validate_tenant_name(std::string_view value) {
  if (value.empty()) {
    throw InvalidInputError(
        "tenant id is empty. Pass a tenant name, or \"__default__\" for a single-tenant "
        "host.");
  }
  if (auto defect = find_utf8_defect(value)) {
    throw InvalidInputError(describe_utf8_defect("tenant id", value, *defect) +
                            ". Pass the tenant name as UTF-8; docket never repairs it.");
  }
  if (is_blank(value)) {
    throw InvalidInputError("tenant id is blank (" + std::to_string(value.size()) +
                            " bytes of white space only). Pass a tenant name, or "
                            "\"__default__\" for a single-tenant host.");
  }
  if (value.size() > kMaxTenantIdBytes) {
    throw InvalidInputError("tenant id is " + std::to_string(value.size()) +
                            " bytes long; the maximum is " + std::to_string(kMaxTenantIdBytes) +
                            " bytes (it is a term of every stored key). Use a shorter tenant "
                            "name, e.g. a stable short id instead of a display name.");
  }
  if (value == kUntenantedSentinel) {
    throw InvalidInputError(
        "tenant id \"__untenanted__\" is reserved: docket records it for writes made outside "
        "any tenant scope, so it cannot name a real tenant. Use another name, or "
        "\"__default__\" for a single-tenant host.");
  }
}

}  // namespace

TenantId::TenantId(std::string_view value) : value_(value) {
  validate_tenant_name(value);
}

TenantId TenantId::default_tenant() {
  return TenantId(Unchecked{}, kDefaultTenant);
}

TenantId TenantId::untenanted() {
  return TenantId(Unchecked{}, kUntenantedSentinel);
}

TenantId TenantId::from_stored(std::string_view value) {
  return value == kUntenantedSentinel ? untenanted() : TenantId(value);
}

TenantScope::TenantScope(TenantId tenant) : previous_(innermost_scope), tenant_(std::move(tenant)) {
  innermost_scope = this;
}

TenantScope::~TenantScope() {
  // The usual case: scopes live on the stack and end in reverse order.
  if (innermost_scope == this) {
    innermost_scope = previous_;
    return;
  }
  // A scope held elsewhere (e.g. in a unique_ptr) ended out of order: unlink it and
  // leave the scopes inside it active.
  for (TenantScope* scope = innermost_scope; scope != nullptr; scope = scope->previous_) {
    if (scope->previous_ == this) {
      scope->previous_ = previous_;
      return;
    }
  }
  // Not on this thread's stack: it was made on another thread, whose stack would keep
  // a dangling pointer. Continuing would attribute writes to a destroyed scope.
  std::fputs(
      "docket: TenantScope destroyed on a thread other than the one that created it; "
      "a scope must end on its own thread. Aborting.\n",
      stderr);
  std::abort();
}

std::optional<TenantId> TenantScope::current() {
  if (innermost_scope == nullptr || innermost_scope->tenant_.is_untenanted()) {
    return std::nullopt;
  }
  return innermost_scope->tenant_;
}

TenantId TenantScope::current_or_untenanted() {
  if (innermost_scope == nullptr) {
    return TenantId::untenanted();
  }
  return innermost_scope->tenant_;
}

}  // namespace docket
