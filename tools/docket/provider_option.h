// The --provider option shared by commands that compose keys: accepts exactly the
// names docket::keys::parse_provider() knows and lists them when given another.
#ifndef DOCKET_TOOLS_DOCKET_PROVIDER_OPTION_H_
#define DOCKET_TOOLS_DOCKET_PROVIDER_OPTION_H_

#include <CLI/CLI.hpp>
#include <string>

#include "docket/keys/provider.h"

namespace docket::tool {

// Refuses (a usage error, exit status 2) a name parse_provider() does not know,
// listing the valid names.
const CLI::Validator& known_provider();

// Adds a required `--provider` option storing the name in `name`. `supported` is the
// help text naming the providers that have the command's shape.
CLI::Option* add_provider_option(CLI::App& command, std::string& name,
                                 const std::string& supported);

// The provider for a name the option has already validated.
keys::Provider provider_named(const std::string& name);

// Every provider's command-line name, space-separated, in kAllProviders order.
std::string provider_names();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_PROVIDER_OPTION_H_
