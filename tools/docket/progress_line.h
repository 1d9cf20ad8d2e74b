// Progress on stderr of a long command (inbox cleanup, outbox replay): one line
// rewritten in place on a terminal, else one line per tenth of the run, so that a log
// stays short; nothing for a run shorter than `shown_from`.
//
//   ProgressLine progress("replayed", ids.size(), kProgressFrom);
//   for (...) { ...; progress(++done); }
//
// Thread-safety: one thread.
#ifndef DOCKET_TOOLS_DOCKET_PROGRESS_LINE_H_
#define DOCKET_TOOLS_DOCKET_PROGRESS_LINE_H_

#include <cstdint>
#include <string>

namespace docket::tool {

// Where a command over many items starts to show its progress: a shorter run is over
// before a line would help.
inline constexpr std::uint64_t kProgressFrom = 50;

class ProgressLine {
 public:
  ProgressLine(std::string verb, std::uint64_t expected, std::uint64_t shown_from = 0);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // `done` of the run's `expected` are through.
  void operator()(std::uint64_t done);

 private:
  std::string verb_;
  std::uint64_t expected_;
  bool shown_;
  bool terminal_;
  std::uint64_t next_tenth_ = 1;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_PROGRESS_LINE_H_
