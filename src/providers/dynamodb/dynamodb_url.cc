#include "providers/dynamodb/dynamodb_url.h"

#include <algorithm>
#include <variant>

#include "core/url_credentials.h"
#include "docket/core/error.h"
#include "providers/kit/store_url_parts.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kScheme = "dynamodb://";

using Parsed = std::variant<StoreUrl, std::string>;

bool all_of(std::string_view text, std::string_view allowed) {
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return allowed.find(c) != std::string_view::npos; });
}

std::optional<std::string> authority_problem(std::string_view authority, StoreUrl& url) {
  if (authority.find('@') != std::string_view::npos) {
    return "it carries user info; docket takes AWS credentials from AWS_ACCESS_KEY_ID and "
           "AWS_SECRET_ACCESS_KEY or the shared credentials file, never from the URL: remove "
           "the part before '@'";
  }
  if (authority == "aws") {
    url.aws = true;
    return std::nullopt;
  }
  if (std::optional<std::string> problem =
          kit::host_port_problem(authority, "'aws' (the AWS service)",
                                 "(DynamoDB Local listens on 8000 unless told otherwise): write "
                                 "dynamodb://HOST:8000?region=...")) {
    return problem;
  }
  url.endpoint = "http://" + std::string(authority) + "/";
  url.host = std::string(authority);
  return std::nullopt;
}

std::optional<std::string> parameter_problem(std::string_view name, std::string_view value,
                                             StoreUrl& url, bool& has_region, bool& has_prefix) {
  if (name == "region") {
    if (has_region) {
      return std::string("it names region twice; give it once");
    }
    has_region = true;
    if (value.empty() || value.size() > 32 ||
        !all_of(value, "abcdefghijklmnopqrstuvwxyz0123456789-")) {
      return "region '" + core::mask_parameter_value_credentials(value) +
             "' is not an AWS region name (lower-case letters, digits and '-', such as "
             "us-east-1)";
    }
    url.region = value;
    return std::nullopt;
  }
  if (name == "table_prefix") {
    if (has_prefix) {
      return std::string("it names table_prefix twice; give it once");
    }
    has_prefix = true;
    if (value.empty() || value.size() > kMaxTablePrefixBytes ||
        !all_of(value, kTableNameCharacters)) {
      return "table_prefix '" + core::mask_parameter_value_credentials(value) +
             "' cannot begin a DynamoDB table name: use 1 to " +
             std::to_string(kMaxTablePrefixBytes) +
             " letters, digits, '_', '.' or '-' (or leave the parameter out for no prefix)";
    }
    url.table_prefix = value;
    return std::nullopt;
  }
  return "it has the unknown parameter '" + std::string(name) +
         "'; the parameters are region (required) and table_prefix";
}

Parsed parse(std::string_view text) {
  StoreUrl url;
  url.text = text;
  std::variant<kit::StoreUrlParts, std::string> split =
      kit::split_store_url(text, kScheme, "a DynamoDB URL");
  if (std::string* problem = std::get_if<std::string>(&split)) {
    return std::move(*problem);
  }
  const auto& parts = std::get<kit::StoreUrlParts>(split);
  if (std::optional<std::string> problem = authority_problem(parts.authority, url)) {
    return std::move(*problem);
  }

  bool has_region = false;
  bool has_prefix = false;
  for (const auto& [name, value] : parts.parameters) {
    if (std::optional<std::string> problem =
            parameter_problem(name, value, url, has_region, has_prefix)) {
      return std::move(*problem);
    }
  }
  if (!has_region) {
    return std::string(
        "it names no region; add ?region=REGION (any region, such as us-east-1, for "
        "DynamoDB Local: requests are signed for it)");
  }
  if (url.aws) {
    const std::string domain = url.region.starts_with("cn-") ? "amazonaws.com.cn" : "amazonaws.com";
    url.host = "dynamodb." + url.region + "." + domain;
    url.endpoint = "https://" + url.host + "/";
  }
  return url;
}

std::string refusal(std::string_view text, const std::string& problem) {
  return "DynamoDB store URL '" + printable_url(text) + "': " + problem +
         ". Accepted forms: " + std::string(kUrlForms) + ".";
}

}  // namespace

std::string printable_url(std::string_view url) {
  return core::mask_url_credentials(url, core::UserInfoAlone::kCredential);
}

StoreUrl parse_store_url(std::string_view url) {
  Parsed parsed = parse(url);
  if (std::string* problem = std::get_if<std::string>(&parsed)) {
    throw ConfigurationError(refusal(url, *problem));
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

}  // namespace docket::dynamodb::detail
