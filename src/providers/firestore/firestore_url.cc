#include "providers/firestore/firestore_url.h"

#include <algorithm>
#include <variant>

#include "core/url_credentials.h"
#include "docket/core/error.h"
#include "providers/kit/store_url_parts.h"

namespace docket::firestore::detail {
namespace {

constexpr std::string_view kFirestoreScheme = "firestore://";

using ParsedFirestoreUrl = std::variant<StoreUrl, std::string>;

bool made_of(std::string_view text, std::string_view allowed) {
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return allowed.find(c) != std::string_view::npos; });
}

std::optional<std::string> firestore_authority_problem(std::string_view authority, StoreUrl& url) {
  if (authority.find('@') != std::string_view::npos) {
    return "it carries user info; docket takes the access token for Cloud Firestore from "
           "DOCKET_FIRESTORE_ACCESS_TOKEN, never from the URL: remove the part before '@'";
  }
  if (authority == "googleapis") {
    url.googleapis = true;
    url.endpoint = "https://firestore.googleapis.com";
    return std::nullopt;
  }
  if (std::optional<std::string> problem =
          kit::host_port_problem(authority, "'googleapis' (the Cloud Firestore service)",
                                 "(the emulator listens where its --port= says): write "
                                 "firestore://HOST:8080?project=...")) {
    return problem;
  }
  url.endpoint = "http://" + std::string(authority);
  return std::nullopt;
}

struct SeenParameters {
  bool project = false;
  bool database = false;
  bool prefix = false;
};

std::optional<std::string> twice(bool& seen, std::string_view name) {
  if (seen) {
    return "it names " + std::string(name) + " twice; give it once";
  }
  seen = true;
  return std::nullopt;
}

std::optional<std::string> firestore_parameter_problem(std::string_view name,
                                                       std::string_view value, StoreUrl& url,
                                                       SeenParameters& seen) {
  if (name == "project") {
    if (std::optional<std::string> problem = twice(seen.project, name)) {
      return problem;
    }
    // Project ids: lower-case letters, digits and '-'; a domain-scoped one carries
    // "domain:" before it.
    if (value.empty() || value.size() > 100 ||
        !made_of(value, "abcdefghijklmnopqrstuvwxyz0123456789-.:")) {
      return "project '" + core::mask_parameter_value_credentials(value) +
             "' is not a Google Cloud project id (lower-case letters, digits and '-', such "
             "as demo-project)";
    }
    url.project = value;
    return std::nullopt;
  }
  if (name == "database") {
    if (std::optional<std::string> problem = twice(seen.database, name)) {
      return problem;
    }
    if (value != kDefaultDatabase && (value.size() < 4 || value.size() > 63 ||
                                      !made_of(value, "abcdefghijklmnopqrstuvwxyz0123456789-"))) {
      return "database '" + core::mask_parameter_value_credentials(value) +
             "' is neither (default) nor a Firestore database id (4 to 63 lower-case "
             "letters, digits and '-')";
    }
    url.database = value;
    return std::nullopt;
  }
  if (name == "prefix") {
    if (std::optional<std::string> problem = twice(seen.prefix, name)) {
      return problem;
    }
    if (value.empty() || value.size() > kMaxPrefixBytes || !made_of(value, kPrefixCharacters) ||
        value.starts_with("__") || value.starts_with(".")) {
      return "prefix '" + core::mask_parameter_value_credentials(value) +
             "' cannot begin a Firestore collection id: use 1 to " +
             std::to_string(kMaxPrefixBytes) +
             " letters, digits, '_', '.' or '-', not beginning with '__' or '.' (or leave the "
             "parameter out for no prefix)";
    }
    url.prefix = value;
    return std::nullopt;
  }
  return "it has the unknown parameter '" + std::string(name) +
         "'; the parameters are project (required), database and prefix";
}

ParsedFirestoreUrl parse_firestore_url(std::string_view text) {
  StoreUrl url;
  url.text = text;
  url.database = kDefaultDatabase;
  std::variant<kit::StoreUrlParts, std::string> split =
      kit::split_store_url(text, kFirestoreScheme, "a Firestore URL");
  if (std::string* problem = std::get_if<std::string>(&split)) {
    return std::move(*problem);
  }
  const auto& parts = std::get<kit::StoreUrlParts>(split);
  if (std::optional<std::string> problem = firestore_authority_problem(parts.authority, url)) {
    return std::move(*problem);
  }
  SeenParameters seen;
  for (const auto& [name, value] : parts.parameters) {
    if (std::optional<std::string> problem = firestore_parameter_problem(name, value, url, seen)) {
      return std::move(*problem);
    }
  }
  if (!seen.project) {
    return std::string(
        "it names no project; add ?project=PROJECT (any id, such as docket-test, for the "
        "emulator)");
  }
  return url;
}

}  // namespace

std::string printable_url(std::string_view url) {
  return core::mask_url_credentials(url, core::UserInfoAlone::kCredential);
}

StoreUrl parse_store_url(std::string_view url) {
  ParsedFirestoreUrl parsed = parse_firestore_url(url);
  if (std::string* problem = std::get_if<std::string>(&parsed)) {
    throw ConfigurationError("Firestore store URL '" + printable_url(url) + "': " + *problem +
                             ". Accepted forms: " + std::string(kUrlForms) + ".");
  }
  return std::get<StoreUrl>(std::move(parsed));
}

std::optional<std::string> store_url_problem(std::string_view url) {
  ParsedFirestoreUrl parsed = parse_firestore_url(url);
  if (std::string* problem = std::get_if<std::string>(&parsed)) {
    return std::move(*problem);
  }
  return std::nullopt;
}

}  // namespace docket::firestore::detail
