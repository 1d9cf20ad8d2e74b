// rekey_tenant (docket/stores/tenant_rekey.h): the tenant and the types are checked
// before the store is opened, and the provider's hook runs the kit's procedure
// (providers/kit/tenant_rekey_procedure.h): marker, moves, the verification through the
// provider's stores, and the marker's removal.
#include "docket/stores/tenant_rekey.h"

#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "providers/registry.h"

namespace docket {
namespace {

// A type names the split of a legacy key and becomes a term of its new key: one that
// is empty or not UTF-8 could split nothing and compose no key.
void check_types(std::string_view option, const std::vector<std::string>& types) {
  for (const std::string& type : types) {
    if (type.empty()) {
      throw InvalidInputError(std::string(option) +
                              " is empty: a type names how legacy keys holding it split, and "
                              "becomes a term of their new keys, which cannot be empty. Drop it "
                              "or name the type; nothing was read or written");
    }
    if (const std::optional<Utf8Defect> defect = find_utf8_defect(type)) {
      throw InvalidInputError(describe_utf8_defect(option, type, *defect) +
                              "; types are UTF-8 text, as the stored keys hold them; nothing "
                              "was read or written");
    }
  }
}

}  // namespace

TenantRekeyReport rekey_tenant(std::string_view url, const TenantRekeyOptions& options) {
  // Refused before anything is opened: a blank or malformed tenant or type.
  static_cast<void>(TenantId::from_stored(options.tenant));
  check_types("--aggregate-type", options.aggregate_types);
  check_types("--saga-type", options.saga_types);
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "tenant re-key");
  if (provider.rekey_tenant == nullptr) {
    std::string offered;
    for (const providers::ProviderRegistration* other :
         providers::Registry::builtin().providers()) {
      if (other->rekey_tenant != nullptr) {
        offered += (offered.empty() ? "" : ", ") + std::string(other->name);
      }
    }
    throw ConfigurationError(
        "the " + std::string(provider.name) +
        " provider never stored event or saga records under an untenanted key (it keys "
        "them by columns, the tenant among them): there is nothing to re-key. The re-key is "
        "for the stores of providers that did (in this build: " +
        (offered.empty() ? std::string("none") : offered) + ")");
  }
  return provider.rekey_tenant(url, options);
}

}  // namespace docket
