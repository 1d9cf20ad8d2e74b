// AWS credentials, found where the AWS SDKs and CLI look for them:
//
//  1. the environment: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (both, or neither),
//     with AWS_SESSION_TOKEN for temporary credentials;
//  2. the shared credentials file (AWS_SHARED_CREDENTIALS_FILE, else
//     $HOME/.aws/credentials), profile AWS_PROFILE (else "default"): its
//     aws_access_key_id, aws_secret_access_key and aws_session_token.
//
// Read once, when a store opens: a misconfiguration is a ConfigurationError then, never
// on the first message. Credentials that other sources would give (instance roles, SSO,
// credential_process) are not looked up.
//
// Thread-safety: pure functions of the environment lookup they are given (the default
// reads the process environment, which no thread may change meanwhile).
#ifndef DOCKET_PROVIDERS_KIT_HTTP_AWS_CREDENTIALS_H_
#define DOCKET_PROVIDERS_KIT_HTTP_AWS_CREDENTIALS_H_

#include <optional>
#include <string>
#include <string_view>

#include "providers/kit/http/environment_lookup.h"

namespace docket::kit::http {

struct AwsCredentials {
  std::string access_key_id{};
  std::string secret_access_key{};
  std::string session_token{};  // empty: long-term credentials
  // Where they came from, for messages: "environment (AWS_ACCESS_KEY_ID)",
  // "profile 'default' of /home/me/.aws/credentials".
  std::string source{};
};

// The credentials of the first source that has them, or nullopt when none has.
// Throws ConfigurationError, naming the variable, file, profile or key, when a source
// is half there: only one of the two variables set, a file or profile named explicitly
// (AWS_SHARED_CREDENTIALS_FILE, AWS_PROFILE) that does not exist, or a profile with an
// access key id and no secret (or the other way round).
std::optional<AwsCredentials> find_aws_credentials(
    const EnvironmentLookup& environment = process_environment);

// find_aws_credentials, and a ConfigurationError naming `who` ("DynamoDB store at
// dynamodb://aws?region=eu-west-1") and every place looked at when none is found.
AwsCredentials require_aws_credentials(std::string_view who,
                                       const EnvironmentLookup& environment = process_environment);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_AWS_CREDENTIALS_H_
