// docket: the command-line tool. Builds the command tree and maps outcomes to exit
// codes, which scripts rely on (docs/reliability.md, "Exit status"):
//   0  success
//   1  refused: docket refused what a well-formed command line asked for (a key or term
//      its rules refuse, a store URL it cannot use, a store or broker that failed or
//      cannot be reached, data it will not touch: docket::Error), or a library below it
//      failed; the message on stderr
//   2  usage error: the command line itself is wrong, whoever finds it: CLI11 (an
//      unknown option, a missing one, text that is no value of the option's kind) or
//      the command (tool::UsageError: a number or duration outside its option's range,
//      options that contradict); nothing was opened
//   3  a check after the run failed (tool::CheckFailed, e.g. a benchmark's counts)
// Whatever it prints passes through a CredentialFilter: no credential of a URL it was
// given reaches stdout or stderr.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <memory>
#include <span>

#include "check_failed.h"
#include "command_tree.h"
#include "credential_filter.h"
#include "docket/core/error.h"
#include "usage_error.h"

namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCheckFailed = 3;

}  // namespace

int main(int argc, char** argv) {
  const docket::tool::CredentialFilter filter(docket::tool::credentials_given(
      std::span<char* const>(argv, static_cast<std::size_t>(argc))));
  const std::unique_ptr<CLI::App> tree = docket::tool::make_command_tree();
  CLI::App& app = *tree;

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --help-all are reported as a ParseError with exit code 0.
    return app.exit(error) == 0 ? 0 : kExitUsage;
  } catch (const docket::tool::UsageError& error) {
    std::cout.flush();
    std::cerr << "docket: " << error.what() << "\nRun with --help for more information.\n";
    return kExitUsage;
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
