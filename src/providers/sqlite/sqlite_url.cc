#include "providers/sqlite/sqlite_url.h"

namespace docket::sqlite::detail {

std::string path_of_url(std::string_view url) {
  if (url == "sqlite::memory:") {
    return ":memory:";
  }
  constexpr std::string_view kFile = "sqlite://";
  return url.starts_with(kFile) ? std::string(url.substr(kFile.size())) : std::string();
}

}  // namespace docket::sqlite::detail
