#include "delivery_tally.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "docket/core/error.h"

namespace docket::tool {
namespace {

constexpr std::array<std::string_view, 4> kFileNames = {"published.count", "deliveries.count",
                                                        "redeliveries.count", "absorbed.count"};

std::string path_of(const std::string& dir, std::size_t index) {
  return dir + "/" + std::string(kFileNames[index]);
}

}  // namespace

DeliveryTally::DeliveryTally(const std::string& dir) : dir_(dir) {
  for (std::size_t i = 0; i < files_.size(); ++i) {
    const std::string path = path_of(dir_, i);
    files_[i] = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (files_[i] < 0) {
      const int error = errno;
      for (std::size_t j = 0; j < i; ++j) {
        ::close(files_[j]);
      }
      throw InfrastructureError("chaos: cannot open the run's count file " + path + ": " +
                                std::strerror(error));
    }
  }
}

DeliveryTally::~DeliveryTally() {
  for (const int file : files_) {
    ::close(file);
  }
}

void DeliveryTally::add(Count count, std::size_t n) {
  const auto index = static_cast<std::size_t>(count);
  const std::vector<char> bytes(n, '.');
  std::size_t written = 0;
  while (written < n) {
    const ssize_t result = ::write(files_[index], bytes.data() + written, n - written);
    if (result < 0 && errno == EINTR) {
      continue;
    }
    if (result <= 0) {
      throw InfrastructureError("chaos: cannot write the run's count file " + path_of(dir_, index) +
                                ": " + std::strerror(errno));
    }
    written += static_cast<std::size_t>(result);
  }
}

QueueCounters DeliveryTally::read() const {
  std::array<std::int64_t, 4> sizes{};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    struct stat info {};
    if (::stat(path_of(dir_, i).c_str(), &info) == 0) {
      sizes[i] = static_cast<std::int64_t>(info.st_size);
    }
  }
  return {.published = sizes[0],
          .deliveries = sizes[1],
          .redeliveries = sizes[2],
          .absorbed = sizes[3],
          .depth = 0};
}

}  // namespace docket::tool
