// docket: the command-line tool. Builds the command tree and maps outcomes to exit
// codes, which scripts rely on:
//   0  success
//   1  refused key or invalid input (docket::Error), message on stderr
//   2  usage error (reported by CLI11)
//   3  a check after the run failed (tool::CheckFailed, e.g. a benchmark's counts)
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <memory>

#include "check_failed.h"
#include "command_tree.h"
#include "docket/core/error.h"

namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCheckFailed = 3;

}  // namespace

int main(int argc, char** argv) {
  const std::unique_ptr<CLI::App> tree = docket::tool::make_command_tree();
  CLI::App& app = *tree;

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
