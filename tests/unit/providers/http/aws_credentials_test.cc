// AWS credentials from the environment and from a real shared credentials file in a
// temporary directory; the environment is a map handed to the lookup.
#include "providers/kit/http/aws_credentials.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "docket/core/error.h"

namespace docket::kit::http {
namespace aws_credentials_test {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

class AwsCredentialsTest : public ::testing::Test {
 protected:
  AwsCredentialsTest() {
    home_ = std::filesystem::temp_directory_path() /
            ("docket-aws-credentials-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(home_ / ".aws");
    env_["HOME"] = home_.string();
  }
  ~AwsCredentialsTest() override { std::filesystem::remove_all(home_); }

  void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
  }
  std::filesystem::path default_file() const { return home_ / ".aws" / "credentials"; }

  EnvironmentLookup lookup() const {
    return [this](std::string_view name) -> std::optional<std::string> {
      const auto it = env_.find(std::string(name));
      return it == env_.end() ? std::nullopt : std::optional(it->second);
    };
  }

  std::filesystem::path home_;
  std::map<std::string, std::string> env_;
};

TEST_F(AwsCredentialsTest, EnvironmentVariablesComeFirst) {
  write(default_file(), "[default]\naws_access_key_id = FROMFILE\naws_secret_access_key = s\n");
  env_["AWS_ACCESS_KEY_ID"] = "AKIDENV";
  env_["AWS_SECRET_ACCESS_KEY"] = "secret";
  env_["AWS_SESSION_TOKEN"] = "token";
  const auto credentials = find_aws_credentials(lookup());
  ASSERT_TRUE(credentials.has_value());
  EXPECT_EQ(credentials->access_key_id, "AKIDENV");
  EXPECT_EQ(credentials->secret_access_key, "secret");
  EXPECT_EQ(credentials->session_token, "token");
  EXPECT_THAT(credentials->source, HasSubstr("environment"));
}

TEST_F(AwsCredentialsTest, HalfTheEnvironmentPairIsRefusedNamingTheMissingOne) {
  env_["AWS_ACCESS_KEY_ID"] = "AKIDENV";
  EXPECT_THAT([&] { find_aws_credentials(lookup()); },
              ThrowsMessage<ConfigurationError>(HasSubstr("AWS_SECRET_ACCESS_KEY is not")));
  env_.erase("AWS_ACCESS_KEY_ID");
  env_["AWS_SECRET_ACCESS_KEY"] = "s";
  EXPECT_THAT([&] { find_aws_credentials(lookup()); },
              ThrowsMessage<ConfigurationError>(HasSubstr("AWS_ACCESS_KEY_ID is not")));
}

TEST_F(AwsCredentialsTest, TheDefaultProfileOfTheSharedFile) {
  write(default_file(),
        "# comment\n[other]\naws_access_key_id=OTHER\naws_secret_access_key=o\n\n"
        "[default]\n  aws_access_key_id = AKIDFILE  \naws_secret_access_key=wJal/K7+x==\n"
        "aws_session_token = tok\nregion = eu-west-1\n");
  const auto credentials = find_aws_credentials(lookup());
  ASSERT_TRUE(credentials.has_value());
  EXPECT_EQ(credentials->access_key_id, "AKIDFILE");
  EXPECT_EQ(credentials->secret_access_key, "wJal/K7+x==");
  EXPECT_EQ(credentials->session_token, "tok");
  EXPECT_EQ(credentials->source, "profile 'default' of " + default_file().string());
}

TEST_F(AwsCredentialsTest, AwsProfileAndAwsSharedCredentialsFileChooseProfileAndFile) {
  const std::filesystem::path elsewhere = home_ / "creds";
  write(elsewhere, "[ci]\naws_access_key_id=AKIDCI\naws_secret_access_key=c\n");
  env_["AWS_SHARED_CREDENTIALS_FILE"] = elsewhere.string();
  env_["AWS_PROFILE"] = "ci";
  const auto credentials = find_aws_credentials(lookup());
  ASSERT_TRUE(credentials.has_value());
  EXPECT_EQ(credentials->access_key_id, "AKIDCI");
  EXPECT_TRUE(credentials->session_token.empty());
}

TEST_F(AwsCredentialsTest, AnExplicitProfileOrFileThatIsMissingIsRefused) {
  write(default_file(), "[default]\naws_access_key_id=A\naws_secret_access_key=s\n");
  env_["AWS_PROFILE"] = "prod";
  EXPECT_THAT([&] { find_aws_credentials(lookup()); },
              ThrowsMessage<ConfigurationError>(
                  AllOf(HasSubstr("AWS_PROFILE is 'prod'"), HasSubstr("no [prod] section"))));
  env_.erase("AWS_PROFILE");
  env_["AWS_SHARED_CREDENTIALS_FILE"] = (home_ / "absent").string();
  EXPECT_THAT([&] { find_aws_credentials(lookup()); },
              ThrowsMessage<ConfigurationError>(
                  AllOf(HasSubstr("AWS_SHARED_CREDENTIALS_FILE"), HasSubstr("cannot be read"))));
}

TEST_F(AwsCredentialsTest, AProfileWithAKeyIdAndNoSecretIsRefused) {
  write(default_file(), "[default]\naws_access_key_id=A\n");
  EXPECT_THAT([&] { find_aws_credentials(lookup()); },
              ThrowsMessage<ConfigurationError>(HasSubstr("no aws_secret_access_key")));
}

TEST_F(AwsCredentialsTest, NothingAnywhereIsNoCredentialsAndRequiringThemSaysWhereToPutThem) {
  EXPECT_FALSE(find_aws_credentials(lookup()).has_value());
  write(default_file(), "[other]\naws_access_key_id=A\naws_secret_access_key=s\n");
  EXPECT_FALSE(find_aws_credentials(lookup()).has_value());
  EXPECT_THAT([&] { require_aws_credentials("DynamoDB store at dynamodb://aws", lookup()); },
              ThrowsMessage<ConfigurationError>(
                  AllOf(HasSubstr("DynamoDB store at dynamodb://aws: no AWS credentials found"),
                        HasSubstr("AWS_ACCESS_KEY_ID"), HasSubstr(default_file().string()),
                        HasSubstr("profile 'default'"))));
}

}  // namespace aws_credentials_test
}  // namespace docket::kit::http
