// Fuzz target for the docket tool's command line: the input, split on NUL bytes, is
// the argument list after "docket", parsed by the tool's own command tree
// (tools/docket/command_tree.h) with every command's callback cleared, so that a parse
// runs CLI11 and the options' own checks (counts, durations, providers, choices) but no
// command: nothing opens a store, a file or a process. A parse either succeeds or
// refuses with CLI::ParseError (a usage error, exit status 2; --help is one too) or
// docket::Error (refused input, exit status 1); anything else escapes and is a crash,
// as are a hang and an abort.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "command_tree.h"
#include "docket/error.h"

namespace {

// Clears the callbacks of `app` and of every command below it: parsing then runs
// nothing but the parse.
void clear_callbacks(CLI::App& app) {
  app.final_callback({});
  app.parse_complete_callback({});
  for (CLI::App* command : app.get_subcommands({})) {
    clear_callbacks(*command);
  }
}

// The arguments: the input split on NUL bytes (an empty input is no argument).
std::vector<std::string> arguments(std::string_view input) {
  std::vector<std::string> args;
  if (input.empty()) {
    return args;
  }
  while (true) {
    const std::size_t at = input.find('\0');
    args.emplace_back(input.substr(0, at));
    if (at == std::string_view::npos) {
      return args;
    }
    input.remove_prefix(at + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The tree is built once per input: a parse leaves its values in the app.
  const std::unique_ptr<CLI::App> app = docket::tool::make_command_tree();
  clear_callbacks(*app);
  const std::vector<std::string> args =
      arguments(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<const char*> argv{"docket"};
  for (const std::string& arg : args) {
    argv.push_back(arg.c_str());
  }
  try {
    app->parse(static_cast<int>(argv.size()), argv.data());
    if (app->get_subcommands().empty()) {
      std::fprintf(stderr, "cli fuzz: a parse without a subcommand succeeded\n");
      std::abort();
    }
  } catch (const CLI::ParseError&) {
    // A usage error, or --help.
  } catch (const docket::Error&) {
    // Refused input.
  }
  return 0;
}
