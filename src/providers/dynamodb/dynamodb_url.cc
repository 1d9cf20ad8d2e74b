#include "providers/dynamodb/dynamodb_url.h"

#include <algorithm>
#include <cctype>
#include <variant>

#include "docket/error.h"
#include "providers/kit/url_password.h"

namespace docket::dynamodb {
namespace {

constexpr std::string_view kScheme = "dynamodb://";

using Parsed = std::variant<StoreUrl, std::string>;

bool all_of(std::string_view text, std::string_view allowed) {
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return allowed.find(c) != std::string_view::npos; });
}

// A host name or IPv4 address: letters, digits, '.', '-'; or an IPv6 address in [].
bool valid_host(std::string_view host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    return all_of(host.substr(1, host.size() - 2), "0123456789abcdefABCDEF:.");
  }
  return !host.empty() &&
         all_of(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
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
  const std::size_t colon = authority.rfind(':');
  const std::string_view host =
      colon == std::string_view::npos ? authority : authority.substr(0, colon);
  if (authority.empty() || !valid_host(host) ||
      (colon != std::string_view::npos && host.front() != '[' &&
       host.find(':') != std::string_view::npos)) {
    return "'" + std::string(authority) +
           "' is neither 'aws' (the AWS service) nor HOST:PORT of a server of one's own "
           "(write IPv6 addresses in brackets: [::1]:8000)";
  }
  const std::string_view port =
      colon == std::string_view::npos ? std::string_view() : authority.substr(colon + 1);
  int number = 0;
  for (const char c : port) {
    number = std::isdigit(static_cast<unsigned char>(c)) != 0 && number <= 65535
                 ? number * 10 + (c - '0')
                 : 100000;
  }
  if (port.empty() || number < 1 || number > 65535) {
    return "host '" + std::string(host) +
           "' needs a port from 1 to 65535 (DynamoDB Local listens on 8000 unless told "
           "otherwise): write dynamodb://" +
           std::string(host) + ":8000?region=...";
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
      return "region '" + std::string(value) +
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
      return "table_prefix '" + std::string(value) +
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
  if (!text.starts_with(kScheme)) {
    return std::string("it does not start with dynamodb://");
  }
  if (text.find('#') != std::string_view::npos) {
    return std::string("it has a fragment ('#'); remove it");
  }
  std::string_view rest = text.substr(kScheme.size());
  const std::size_t question = rest.find('?');
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : rest.substr(question + 1);
  rest = rest.substr(0, question);
  std::string_view authority = rest.substr(0, rest.find('/'));
  if (const std::string_view path = rest.substr(authority.size()); !path.empty() && path != "/") {
    return "it has the path '" + std::string(path) +
           "'; a DynamoDB URL names a server and parameters only";
  }
  if (std::optional<std::string> problem = authority_problem(authority, url)) {
    return std::move(*problem);
  }

  bool has_region = false;
  bool has_prefix = false;
  std::size_t start = 0;
  while (!query.empty() && start <= query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string_view pair = query.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    if (pair.empty() || equals == std::string_view::npos) {
      return "its parameter '" + std::string(pair) + "' is not NAME=VALUE";
    }
    if (std::optional<std::string> problem = parameter_problem(
            pair.substr(0, equals), pair.substr(equals + 1), url, has_region, has_prefix)) {
      return std::move(*problem);
    }
    start = end + 1;
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
  return "DynamoDB store URL '" + kit::mask_url_passwords(text) + "': " + problem +
         ". Accepted forms: " + std::string(kUrlForms) + ".";
}

}  // namespace

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

}  // namespace docket::dynamodb
