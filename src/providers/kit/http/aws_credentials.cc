#include "providers/kit/http/aws_credentials.h"

#include <fstream>
#include <map>
#include <utility>

#include "docket/core/error.h"

namespace docket::kit::http {
namespace {

constexpr std::string_view kHowToSet =
    "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary "
    "credentials), or put aws_access_key_id and aws_secret_access_key in a profile of the "
    "shared credentials file";

std::string_view trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::optional<std::string> non_empty(const EnvironmentLookup& environment, std::string_view name) {
  std::optional<std::string> value = environment(name);
  if (value && value->empty()) {
    return std::nullopt;
  }
  return value;
}

std::optional<AwsCredentials> from_environment(const EnvironmentLookup& environment) {
  std::optional<std::string> id = non_empty(environment, "AWS_ACCESS_KEY_ID");
  std::optional<std::string> secret = non_empty(environment, "AWS_SECRET_ACCESS_KEY");
  if (!id && !secret) {
    return std::nullopt;
  }
  if (!id || !secret) {
    throw ConfigurationError(std::string(id ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY") +
                             " is set but " + (id ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID") +
                             " is not: AWS credentials need both; set the other one, or unset "
                             "this one to use the shared credentials file");
  }
  return AwsCredentials{.access_key_id = std::move(*id),
                        .secret_access_key = std::move(*secret),
                        .session_token = non_empty(environment, "AWS_SESSION_TOKEN").value_or(""),
                        .source = "environment (AWS_ACCESS_KEY_ID)"};
}

// The key = value pairs of section [profile] of an INI file; nullopt when the file has
// no such section. Lines starting with '#' or ';' are comments.
std::optional<std::map<std::string, std::string, std::less<>>> read_profile(
    std::ifstream& file, std::string_view profile) {
  std::optional<std::map<std::string, std::string, std::less<>>> found;
  bool in_profile = false;
  std::string raw;
  while (std::getline(file, raw)) {
    const std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') {
      continue;
    }
    if (line.front() == '[' && line.back() == ']') {
      in_profile = trim(line.substr(1, line.size() - 2)) == profile;
      if (in_profile && !found) {
        found.emplace();
      }
      continue;
    }
    const std::size_t equals = line.find('=');
    if (in_profile && equals != std::string_view::npos) {
      (*found)[std::string(trim(line.substr(0, equals)))] =
          std::string(trim(line.substr(equals + 1)));
    }
  }
  return found;
}

std::optional<AwsCredentials> from_shared_file(const EnvironmentLookup& environment) {
  const std::optional<std::string> explicit_path =
      non_empty(environment, "AWS_SHARED_CREDENTIALS_FILE");
  const std::optional<std::string> explicit_profile = non_empty(environment, "AWS_PROFILE");
  std::string path;
  if (explicit_path) {
    path = *explicit_path;
  } else if (const std::optional<std::string> home = non_empty(environment, "HOME")) {
    path = *home + "/.aws/credentials";
  } else if (explicit_profile) {
    throw ConfigurationError("AWS_PROFILE is '" + *explicit_profile +
                             "' but HOME is not set, so there is no ~/.aws/credentials to read it "
                             "from; set HOME or AWS_SHARED_CREDENTIALS_FILE");
  } else {
    return std::nullopt;
  }
  const std::string profile = explicit_profile.value_or("default");

  std::ifstream file(path);
  if (!file) {
    if (explicit_path || explicit_profile) {
      throw ConfigurationError(
          "the AWS shared credentials file " + path + " (" +
          (explicit_path ? "AWS_SHARED_CREDENTIALS_FILE" : "AWS_PROFILE '" + profile + "'") +
          ") cannot be read; create it with profile [" + profile + "], or unset the variable");
    }
    return std::nullopt;
  }
  const auto keys = read_profile(file, profile);
  if (!keys) {
    if (explicit_profile) {
      throw ConfigurationError("AWS_PROFILE is '" + profile + "' but " + path + " has no [" +
                               profile +
                               "] section; add it or choose another "
                               "profile");
    }
    return std::nullopt;
  }
  const auto value = [&](std::string_view key) -> std::string {
    const auto it = keys->find(key);
    return it == keys->end() ? std::string() : it->second;
  };
  AwsCredentials credentials{.access_key_id = value("aws_access_key_id"),
                             .secret_access_key = value("aws_secret_access_key"),
                             .session_token = value("aws_session_token"),
                             .source = "profile '" + profile + "' of " + path};
  if (credentials.access_key_id.empty() != credentials.secret_access_key.empty()) {
    throw ConfigurationError("profile [" + profile + "] of " + path + " has " +
                             (credentials.access_key_id.empty()
                                  ? "aws_secret_access_key but no aws_access_key_id"
                                  : "aws_access_key_id but no aws_secret_access_key") +
                             "; AWS credentials need both");
  }
  if (credentials.access_key_id.empty()) {
    if (explicit_profile) {
      throw ConfigurationError("profile [" + profile + "] of " + path +
                               " (AWS_PROFILE) holds no aws_access_key_id and "
                               "aws_secret_access_key; add them or choose another profile");
    }
    return std::nullopt;
  }
  return credentials;
}

}  // namespace

std::optional<AwsCredentials> find_aws_credentials(const EnvironmentLookup& environment) {
  if (std::optional<AwsCredentials> credentials = from_environment(environment)) {
    return credentials;
  }
  return from_shared_file(environment);
}

AwsCredentials require_aws_credentials(std::string_view who, const EnvironmentLookup& environment) {
  if (std::optional<AwsCredentials> credentials = find_aws_credentials(environment)) {
    return std::move(*credentials);
  }
  const std::string file =
      non_empty(environment, "AWS_SHARED_CREDENTIALS_FILE")
          .value_or(non_empty(environment, "HOME").value_or("~") + "/.aws/credentials");
  throw ConfigurationError(std::string(who) +
                           ": no AWS credentials found (neither AWS_ACCESS_KEY_ID and "
                           "AWS_SECRET_ACCESS_KEY in the environment, nor profile '" +
                           non_empty(environment, "AWS_PROFILE").value_or("default") + "' in " +
                           file + "); " + std::string(kHowToSet) +
                           " (AWS_SHARED_CREDENTIALS_FILE and AWS_PROFILE choose the file and "
                           "profile)");
}

}  // namespace docket::kit::http
