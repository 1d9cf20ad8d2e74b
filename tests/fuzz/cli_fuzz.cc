// Fuzz target for the docket tool's command line: the input, split on NUL bytes, is
// the argument list after "docket", parsed by the tool's own command tree
// (tools/docket/command_tree.h). No command runs: the root app's parse-complete
// callback, which CLI11 calls once every argument is parsed, every option converted
// and checked and every requirement met, and before it calls any command's callback,
// throws Parsed. A command's option values live in its callback (a shared_ptr it
// captures), so the callbacks stay in place and are never called; the tool sets no
// callback that runs earlier (immediate or parse-complete ones on a command). A parse
// thus runs CLI11 and the options' own checks (counts, durations, providers, choices)
// and opens no store, file or process.
//
// A parse either completes with a command chosen (Parsed) or refuses with
// CLI::ParseError (a usage error, exit status 2; --help is one too) or docket::Error
// (refused input, exit status 1); anything else escapes and is a crash, as are a hang
// and an abort.
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
#include "docket/core/error.h"

namespace {

// Thrown by the root app's parse-complete callback: the parse is done, no command ran.
struct Parsed {};

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

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "cli fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The tree is built once per input: a parse leaves its values in the commands.
  const std::unique_ptr<CLI::App> app = docket::tool::make_command_tree();
  app->parse_complete_callback([] { throw Parsed{}; });
  const std::vector<std::string> args =
      arguments(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<const char*> argv{"docket"};
  for (const std::string& arg : args) {
    argv.push_back(arg.c_str());
  }
  try {
    app->parse(static_cast<int>(argv.size()), argv.data());
    fail("a parse returned without completing: a command may have run");
  } catch (const Parsed&) {
    if (app->get_subcommands().empty()) {
      fail("a parse without a command completed");
    }
  } catch (const CLI::ParseError&) {
    // A usage error, or --help.
  } catch (const docket::Error&) {
    // Refused input.
  }
  return 0;
}
