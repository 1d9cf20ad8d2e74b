#include "providers/cosmos/cosmos_url.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "core/url_credentials.h"
#include "core/url_text.h"
#include "docket/core/error.h"
#include "providers/kit/store_url_parts.h"

namespace docket::cosmos::detail {
namespace {

constexpr std::string_view kCosmosScheme = "cosmos://";
// Letters, digits, '_', '.' and '-': within Cosmos DB's id rules (no '/', '\', '?', '#')
// and needing no escaping in a resource link.
constexpr std::string_view kIdCharacters =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";

bool made_of(std::string_view text, std::string_view allowed) {
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return allowed.find(c) != std::string_view::npos; });
}

// What the parameters said, before the URL is whole.
struct Seen {
  std::optional<std::string> database{};
  std::optional<std::string> key{};
  std::optional<std::string> prefix{};
  std::optional<bool> tls{};
  std::optional<std::string> ca{};
};

std::optional<std::string> once(bool seen, std::string_view name) {
  if (seen) {
    return "it names " + std::string(name) + " twice; give it once";
  }
  return std::nullopt;
}

std::optional<std::string> parameter_problem(std::string_view name, std::string_view value,
                                             Seen& seen) {
  if (value.empty()) {
    return "its parameter " + std::string(name) + " is empty; give it a value or leave it out";
  }
  if (name == "database") {
    if (auto problem = once(seen.database.has_value(), name)) {
      return problem;
    }
    if (value.size() > kMaxDatabaseBytes || !made_of(value, kIdCharacters)) {
      return "database '" + core::mask_parameter_value_credentials(value) +
             "' is not a database id docket accepts: 1 to 255 letters, digits, '_', '.' or '-'";
    }
    seen.database = std::string(value);
    return std::nullopt;
  }
  if (name == "key") {
    if (auto problem = once(seen.key.has_value(), name)) {
      return problem;
    }
    std::optional<std::string> decoded = core::percent_decoded(value);
    if (!decoded) {
      return std::string(
          "its key holds a '%' that is not followed by two hex digits; percent-encode the "
          "key's '+' '/' '=' as %2B %2F %3D");
    }
    seen.key = std::move(*decoded);
    return std::nullopt;
  }
  if (name == "prefix") {
    if (auto problem = once(seen.prefix.has_value(), name)) {
      return problem;
    }
    if (value.size() > kMaxPrefixBytes || !made_of(value, kIdCharacters)) {
      return "prefix '" + core::mask_parameter_value_credentials(value) +
             "' cannot begin a container id: use 1 to " + std::to_string(kMaxPrefixBytes) +
             " letters, digits, '_', '.' or '-' (or leave the parameter out for no prefix)";
    }
    seen.prefix = std::string(value);
    return std::nullopt;
  }
  if (name == "tls") {
    if (auto problem = once(seen.tls.has_value(), name)) {
      return problem;
    }
    if (value != "off") {
      return "tls is '" + core::mask_parameter_value_credentials(value) +
             "'; TLS is on unless the URL says tls=off (plain HTTP, for a test server on "
             "this machine)";
    }
    seen.tls = false;
    return std::nullopt;
  }
  if (name == "ca") {
    if (auto problem = once(seen.ca.has_value(), name)) {
      return problem;
    }
    std::optional<std::string> decoded = core::percent_decoded(value);
    if (!decoded || decoded->empty() || decoded->front() != '/') {
      return "ca is '" + core::mask_parameter_value_credentials(value) +
             "'; give the absolute path of a PEM file of the certificate authorities to trust "
             "(percent-encoded where needed)";
    }
    seen.ca = std::move(*decoded);
    return std::nullopt;
  }
  return "it has the unknown parameter '" + std::string(name) +
         "'; the parameters are database and key (required), prefix, ca and tls=off";
}

using Parsed = std::variant<StoreUrl, std::string>;

Parsed parse(std::string_view text) {
  std::variant<kit::StoreUrlParts, std::string> split =
      kit::split_store_url(text, kCosmosScheme, "a Cosmos DB URL");
  if (std::string* problem = std::get_if<std::string>(&split)) {
    return std::move(*problem);
  }
  const auto& parts = std::get<kit::StoreUrlParts>(split);
  if (parts.authority.find('@') != std::string_view::npos) {
    return std::string(
        "it carries user info; the master key goes in the key= parameter: remove the part "
        "before '@'");
  }
  if (auto problem = kit::host_port_problem(
          parts.authority, "a host",
          "(the service listens on 443): write cosmos://ACCOUNT.documents.azure.com:443?...")) {
    return std::move(*problem);
  }
  Seen seen;
  for (const auto& [name, value] : parts.parameters) {
    if (auto problem = parameter_problem(name, value, seen)) {
      return std::move(*problem);
    }
  }
  if (seen.ca && seen.tls == false) {
    return std::string(
        "it names a certificate file (ca=) and turns TLS off (tls=off); the file is for "
        "TLS: leave out one of them");
  }
  if (!seen.database) {
    return std::string("it names no database; add &database=DATABASE (created on first use)");
  }
  if (!seen.key) {
    return std::string(
        "it names no master key; add &key=KEY, the account's key percent-encoded ('+' '/' "
        "'=' as %2B %2F %3D)");
  }
  std::optional<kit::http::CosmosMasterKey> key =
      kit::http::CosmosMasterKey::from_base64(*seen.key);
  if (!key) {
    return std::string(
        "its key is not base64 (the account's key as the portal shows it, percent-encoded: "
        "'+' '/' '=' as %2B %2F %3D)");
  }
  return StoreUrl{
      .printable = printable_url(text),
      .endpoint = (seen.tls.value_or(true) ? "https://" : "http://") + std::string(parts.authority),
      .database = std::move(*seen.database),
      .prefix = seen.prefix.value_or(""),
      .ca_file = seen.ca.value_or(""),
      .key = std::move(*key)};
}

}  // namespace

std::string printable_url(std::string_view url) {
  return core::mask_url_credentials(url, core::UserInfoAlone::kCredential);
}

StoreUrl parse_store_url(std::string_view url) {
  Parsed parsed = parse(url);
  if (std::string* problem = std::get_if<std::string>(&parsed)) {
    throw ConfigurationError("Cosmos DB store URL '" + printable_url(url) + "': " + *problem +
                             ". Accepted form: " + std::string(kUrlForms) + ".");
  }
  return std::get<StoreUrl>(std::move(parsed));
}

std::optional<std::string> store_url_problem(std::string_view url) {
  Parsed parsed = parse(url);
  if (std::string* problem = std::get_if<std::string>(&parsed)) {
    return std::move(*problem);
  }
  return std::nullopt;
}

}  // namespace docket::cosmos::detail
