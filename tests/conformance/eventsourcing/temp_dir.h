// A fresh directory under the system's temporary directory, removed with everything
// in it when the object is destroyed: where the SQLite tests keep their database files.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_TEMP_DIR_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace docket::conformance::eventsourcing {

class TempDir {
 public:
  TempDir() {
    std::string dir = (std::filesystem::temp_directory_path() / "docket-events-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed for " + dir);
    }
    path_ = dir;
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The path of `name` in the directory.
  std::string file(std::string_view name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_TEMP_DIR_H_
