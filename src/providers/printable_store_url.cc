#include "docket/stores/printable_store_url.h"

#include "providers/registry.h"

namespace docket {

std::string printable_store_url(std::string_view url) {
  return providers::Registry::builtin().printable(url);
}

}  // namespace docket
