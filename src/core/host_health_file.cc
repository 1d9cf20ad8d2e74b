#include "core/host_health_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket::core {
namespace {

// A JSON string of `text`: bytes that are not UTF-8 escaped as \xNN text first (an
// error message may carry any bytes), then quotes, backslashes and controls escaped.
std::string json_string(std::string_view text) {
  const std::string utf8 = escape_invalid_utf8(text);
  std::string out = "\"";
  for (const char c : utf8) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw InfrastructureError("service host: cannot write the health file '" + path + "' (" + what +
                            ": " + std::strerror(errno) +
                            "); give a path in a directory the service may write");
}

}  // namespace

std::string host_health_json(const HostHealth& health, Timestamp written_at, long pid) {
  std::string out =
      "{\"pid\":" + std::to_string(pid) +
      ",\"written_at\":" + json_string(format_timestamp(written_at)) + ",\"written_at_us\":" +
      std::to_string(
          std::chrono::duration_cast<std::chrono::microseconds>(written_at.time_since_epoch())
              .count()) +
      ",\"running\":" + (health.running ? "true" : "false") +
      ",\"healthy\":" + (health.healthy ? "true" : "false") + ",\"loops\":[";
  for (std::size_t i = 0; i < health.loops.size(); ++i) {
    const LoopHealth& loop = health.loops[i];
    out += (i == 0 ? "{" : ",{");
    out += "\"name\":" + json_string(loop.name) +
           ",\"state\":" + json_string(to_string(loop.state)) +
           ",\"restarts\":" + std::to_string(loop.restarts) +
           ",\"last_error\":" + json_string(loop.last_error) + ",\"last_error_at\":" +
           (loop.last_error_at ? json_string(format_timestamp(*loop.last_error_at)) : "null") + "}";
  }
  return out + "],\"health_file_error\":" + json_string(health.health_file_error) + "}\n";
}

void write_host_health_file(const std::string& path, std::string_view contents) {
  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    fail(path, "open " + temporary);
  }
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      errno = saved;
      fail(path, "write " + temporary);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    fail(path, "close " + temporary);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    fail(path, "rename " + temporary);
  }
}

}  // namespace docket::core
