// docket: the command-line tool. Builds the command tree and maps outcomes to exit
// codes, which scripts rely on:
//   0  success
//   1  refused key or invalid input (docket::Error), message on stderr
//   2  usage error (reported by CLI11)
//   3  a check after the run failed (tool::CheckFailed, e.g. a benchmark's counts)
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "chaos_command.h"
#include "check_failed.h"
#include "demo_command.h"
#include "docket/error.h"
#include "events_command.h"
#include "inbox_command.h"
#include "keys_command.h"
#include "migrate_command.h"
#include "sagas_command.h"
#include "soak_command.h"
#if DOCKET_HAVE_BENCH
#include "bench_command.h"
#endif

namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCheckFailed = 3;

std::string usage_failure_message(const CLI::App* app, const CLI::Error& error) {
  return "docket: " + CLI::FailureMessage::simple(app, error);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "docket: effectively-once messaging for C++.\n"
      "`docket demo` runs an order pipeline through the outbox and the inbox with faults "
      "switched on; `docket keys` shows the storage keys docket composes.",
      "docket"};
  app.require_subcommand(1);
  app.failure_message(usage_failure_message);

  docket::tool::add_demo_command(app);
  docket::tool::add_chaos_command(app);
  docket::tool::add_keys_command(app);
  docket::tool::add_inbox_command(app);
  docket::tool::add_migrate_command(app);
  docket::tool::add_events_command(app);
  docket::tool::add_sagas_command(app);
  docket::tool::add_soak_command(app);
#if DOCKET_HAVE_BENCH
  docket::tool::add_bench_command(app);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --help-all are reported as a ParseError with exit code 0.
    return app.exit(error) == 0 ? 0 : kExitUsage;
  } catch (const docket::Error& error) {
    std::cerr << "docket: " << error.what() << '\n';
    return kExitRefused;
  } catch (const docket::tool::CheckFailed& error) {
    std::cout.flush();
    std::cerr << "docket: " << error.what() << '\n';
    return kExitCheckFailed;
  } catch (const std::exception& error) {
    // Not one of docket's own errors: a library below it (JSON, the standard library)
    // failed. Reported and refused, never an abort.
    std::cout.flush();
    std::cerr << "docket: unexpected failure: " << error.what() << '\n';
    return kExitRefused;
  }

  std::cout.flush();
  if (!std::cout) {
    std::cerr << "docket: could not write to standard output\n";
    return kExitRefused;
  }
  return 0;
}
