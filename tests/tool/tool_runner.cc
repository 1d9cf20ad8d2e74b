#include "tool_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

extern char** environ;

namespace docket::testing {
namespace {

[[noreturn]] void fail(const std::string& what, int error) {
  throw std::runtime_error(what + ": " + std::strerror(error));
}

// Owns a pipe's two ends; closes whichever are still open.
class Pipe {
 public:
  Pipe() {
    if (::pipe(fds_.data()) != 0) {
      fail("pipe", errno);
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  void close_write() { close_fd(fds_[1]); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }
  std::array<int, 2> fds_{-1, -1};
};

// Owns posix_spawn_file_actions_t.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

// A file holding a child's standard input, removed when the run is over.
class InputFile {
 public:
  explicit InputFile(const std::string& text) {
    const int fd = ::mkstemp(path_.data());
    if (fd < 0) {
      fail("mkstemp", errno);
    }
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
      if (n < 0 && errno != EINTR) {
        const int error = errno;
        ::close(fd);
        fail("write " + path_, error);
      }
      written += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
    ::close(fd);
  }
  ~InputFile() { ::unlink(path_.c_str()); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_ = "/tmp/docket-tool-input-XXXXXX";
};

// Reads both pipes until both reach end of file; polling both avoids a deadlock when
// the child fills one while the parent blocks on the other. `on_out`, when set, is
// called after each piece of stdout is appended to `out`; `on_deadline`, when set, once
// `deadline` has passed (it ends the child, and the pipes with it).
void drain(Pipe& out_pipe, Pipe& err_pipe, std::string& out, std::string& err,
           const std::function<void()>& on_out, std::chrono::steady_clock::time_point deadline,
           const std::function<void()>& on_deadline) {
  std::array<pollfd, 2> fds{pollfd{out_pipe.read_end(), POLLIN, 0},
                            pollfd{err_pipe.read_end(), POLLIN, 0}};
  std::array<std::string*, 2> sinks{&out, &err};
  int open_count = 2;
  bool deadline_passed = false;
  while (open_count > 0) {
    int wait_ms = -1;
    if (on_deadline && !deadline_passed) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      wait_ms = static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0));
    }
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (ready == 0) {
      on_deadline();  // the child is ended: its pipes reach end of file
      deadline_passed = true;
      continue;
    }
    if (ready < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail("poll", errno);
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      std::array<char, 4096> buffer{};
      const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (n > 0) {
        sinks[i]->append(buffer.data(), static_cast<std::size_t>(n));
        if (i == 0 && on_out) {
          on_out();
        }
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // end of file (or a read error: nothing more will come)
        --open_count;
      }
    }
  }
}

}  // namespace

std::string describe(const ToolRun& run) {
  return "exit " + std::to_string(run.exit_code) + (run.timed_out ? " (killed: timed out)" : "") +
         "\nstdout: " + run.out + "\nstderr: " + run.err;
}

namespace {

// Runs `docket args...` to completion, calling on_out(pid, stdout so far) as stdout
// grows; kills it with SIGKILL when it runs past `limit`, so that no run outlives its
// test.
ToolRun run_child(const std::vector<std::string>& args, const std::optional<std::string>& input,
                  const std::function<void(pid_t, const std::string&)>& on_out,
                  std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<std::string> argv_storage{DOCKET_TOOL_PATH};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);

  Pipe out_pipe;
  Pipe err_pipe;
  FileActions actions;
  posix_spawn_file_actions_adddup2(actions.get(), out_pipe.write_end(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(actions.get(), err_pipe.write_end(), STDERR_FILENO);
  posix_spawn_file_actions_addclose(actions.get(), out_pipe.read_end());
  posix_spawn_file_actions_addclose(actions.get(), err_pipe.read_end());
  std::optional<InputFile> input_file;
  if (input) {
    input_file.emplace(*input);
    posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, input_file->path().c_str(),
                                     O_RDONLY, 0);
  }

  pid_t pid = -1;
  const int spawn_error = posix_spawn(&pid, argv[0], actions.get(), nullptr, argv.data(), environ);
  if (spawn_error != 0) {
    fail(std::string("posix_spawn ") + argv[0], spawn_error);
  }
  out_pipe.close_write();
  err_pipe.close_write();

  ToolRun run;
  bool overran = false;
  const std::function<void()> on_deadline = [&] {
    if (!overran) {
      ::kill(pid, SIGKILL);
      overran = true;
    }
  };
  drain(
      out_pipe, err_pipe, run.out, run.err,
      [&] {
        if (on_out) {
          on_out(pid, run.out);
        }
      },
      deadline, on_deadline);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      fail("waitpid", errno);
    }
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.timed_out = overran;
  if (overran) {
    run.err +=
        "\n[killed by the test: still running after " + std::to_string(limit.count()) + " ms]";
  }
  return run;
}

}  // namespace

ToolRun run_docket(const std::vector<std::string>& args, const std::optional<std::string>& input,
                   std::chrono::milliseconds timeout) {
  return run_child(args, input, {}, timeout);
}

ToolRun run_docket_within(const std::vector<std::string>& args, std::chrono::seconds limit) {
  return run_child(args, std::nullopt, {}, limit);
}

ToolRun run_docket_killed_at(const std::vector<std::string>& args, const std::string& marker) {
  bool killed = false;
  return run_child(
      args, std::nullopt,
      [&](pid_t pid, const std::string& out) {
        if (!killed && out.find(marker) != std::string::npos) {
          ::kill(pid, SIGKILL);
          killed = true;
        }
      },
      kDefaultToolTimeout);
}

}  // namespace docket::testing
