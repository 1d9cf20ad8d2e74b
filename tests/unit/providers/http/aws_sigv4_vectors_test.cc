// AWS Signature Version 4 against AWS's published vectors: the aws-sig-v4-test-suite
// (Apache-2.0, as shipped in botocore's tests/unit/auth/aws4_testsuite: request,
// canonical request, string to sign, signature) and the IAM ListUsers example of the
// AWS General Reference (signing key and signature). DynamoDB Local checks no
// signature, so these are the proof that real AWS accepts what docket signs.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/kit/http/aws_sigv4.h"

namespace docket::kit::http {
namespace aws_sigv4_vectors_test {

using namespace std::chrono_literals;

// 2015-08-30T12:36:00Z, the time of every vector.
const std::chrono::system_clock::time_point kVectorTime =
    std::chrono::sys_days(std::chrono::year{2015} / 8 / 30) + 12h + 36min;

const AwsCredentials kExampleCredentials{
    .access_key_id = "AKIDEXAMPLE",
    .secret_access_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"};

constexpr const char* kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

struct Vector {
  std::string name;
  std::string method;
  std::string path;
  std::vector<std::pair<std::string, std::string>> query;
  std::vector<HttpHeader> headers;  // the .req headers but X-Amz-Date (the signer adds it)
  std::string payload;
  std::string session_token;
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;
};

// Canonical requests of the suite whose only header lines are host and x-amz-date.
std::string plain_creq(const std::string& method, const std::string& uri,
                       const std::string& query) {
  return method + "\n" + uri + "\n" + query +
         "\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n" +
         kEmptyPayloadHash;
}

std::string suite_sts(const std::string& creq_hash) {
  return "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n" +
         creq_hash;
}

const HttpHeader kHost{"Host", "example.amazonaws.com"};
const std::string kStsToken =
    "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSP"
    "fIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYw"
    "T7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKm"
    "lzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";

std::vector<Vector> suite() {
  return {
      {"get_vanilla",
       "GET",
       "/",
       {},
       {kHost},
       "",
       "",
       plain_creq("GET", "/", ""),
       suite_sts("bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63"),
       "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
      {"get_vanilla_query_order_key_case",
       "GET",
       "/",
       {{"Param2", "value2"}, {"Param1", "value1"}},
       {kHost},
       "",
       "",
       plain_creq("GET", "/", "Param1=value1&Param2=value2"),
       suite_sts("816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0"),
       "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
      {"get_vanilla_query_order_value",
       "GET",
       "/",
       {{"Param1", "value2"}, {"Param1", "value1"}},
       {kHost},
       "",
       "",
       plain_creq("GET", "/", "Param1=value1&Param1=value2"),
       suite_sts("c968629d70850097a2d8781c9bf7edcb988b04cac14cca9be4acc3595f884606"),
       "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"},
      {"get_vanilla_query_order_encoded",
       "GET",
       "/",
       {{"Param-3", "Value3"}, {"Param", "Value2"}, {"\xE1\x88\xB4", "Value1"}},
       {kHost},
       "",
       "",
       plain_creq("GET", "/", "%E1%88%B4=Value1&Param=Value2&Param-3=Value3"),
       suite_sts("868294f5c38bd141c4972a373a76654f1418a8e4fc18b2e7903ae45e8ae0ec71"),
       "371d3713e185cc334048618a97f809c9ffe339c62934c032af5a0e595648fcac"},
      {"get_vanilla_query_unreserved",
       "GET",
       "/",
       {{"-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
         "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"}},
       {kHost},
       "",
       "",
       plain_creq("GET", "/",
                  "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz="
                  "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
       suite_sts("c30d4703d9f799439be92736156d47ccfb2d879ddf56f5befa6d1d6aab979177"),
       "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"},
      {"get_unreserved",
       "GET",
       "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
       {},
       {kHost},
       "",
       "",
       plain_creq("GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", ""),
       suite_sts("6a968768eefaa713e2a6b16b589a8ea192661f098f37349f4e2c0082757446f9"),
       "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"},
      {"get_utf8",
       "GET",
       "/\xE1\x88\xB4",
       {},
       {kHost},
       "",
       "",
       plain_creq("GET", "/%E1%88%B4", ""),
       suite_sts("2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102"),
       "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"},
      {"get_header_value_trim",
       "GET",
       "/",
       {},
       {kHost, {"My-Header1", " value1"}, {"My-Header2", " \"a   b   c\""}},
       "",
       "",
       std::string("GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
                   "x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date\n") +
           kEmptyPayloadHash,
       suite_sts("a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7"),
       "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"},
      {"get_header_key_duplicate",
       "GET",
       "/",
       {},
       {kHost, {"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}},
       "",
       "",
       std::string("GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value2,value2,value1\n"
                   "x-amz-date:20150830T123600Z\n\nhost;my-header1;x-amz-date\n") +
           kEmptyPayloadHash,
       suite_sts("dc7f04a3abfde8d472b0ab1a418b741b7c67174dad1551b4117b15527fbe966c"),
       "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"},
      {"post_vanilla",
       "POST",
       "/",
       {},
       {kHost},
       "",
       "",
       plain_creq("POST", "/", ""),
       suite_sts("553f88c9e4d10fc9e109e2aeb65f030801b70c2f6468faca261d401ae622fc87"),
       "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
      {"post_header_value_case",
       "POST",
       "/",
       {},
       {kHost, {"My-Header1", "VALUE1"}},
       "",
       "",
       std::string("POST\n/\n\nhost:example.amazonaws.com\nmy-header1:VALUE1\n"
                   "x-amz-date:20150830T123600Z\n\nhost;my-header1;x-amz-date\n") +
           kEmptyPayloadHash,
       suite_sts("d51ced243e649e3de6ef63afbbdcbca03131a21a7103a1583706a64618606a93"),
       "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"},
      {"post_x_www_form_urlencoded",
       "POST",
       "/",
       {},
       {{"Content-Type", "application/x-www-form-urlencoded"}, kHost},
       "Param1=value1",
       "",
       "POST\n/\n\ncontent-type:application/x-www-form-urlencoded\nhost:example.amazonaws.com\n"
       "x-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date\n"
       "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
       suite_sts("42a5e5bb34198acb3e84da4f085bb7927f2bc277ca766e6d19c73c2154021281"),
       "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"},
      {"post_sts_header_before",
       "POST",
       "/",
       {},
       {kHost},
       "",
       kStsToken,
       "POST\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n"
       "x-amz-security-token:" +
           kStsToken + "\n\nhost;x-amz-date;x-amz-security-token\n" + kEmptyPayloadHash,
       suite_sts("c237e1b440d4c63c32ca95b5b99481081cb7b13c7e40434868e71567c1a882f6"),
       "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"},
      {"get_vanilla_with_session_token",
       "GET",
       "/",
       {},
       {kHost},
       "",
       "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267",
       std::string("GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n"
                   "x-amz-security-token:6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73e"
                   "bf194267\n\nhost;x-amz-date;x-amz-security-token\n") +
           kEmptyPayloadHash,
       suite_sts("067b36aa60031588cea4a4cde1f21215227a047690c72247f1d70b32fbbfad2b"),
       "07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8"},
  };
}

class SigV4Suite : public ::testing::TestWithParam<Vector> {};

TEST_P(SigV4Suite, MatchesTheCanonicalRequestStringToSignAndSignature) {
  const Vector& v = GetParam();
  AwsCredentials credentials = kExampleCredentials;
  credentials.session_token = v.session_token;
  const SigV4Signature signed_request =
      sign_sigv4({.method = v.method,
                  .path = v.path,
                  .query = v.query,
                  .headers = v.headers,
                  .payload = v.payload},
                 credentials, {.region = "us-east-1", .service = "service"}, kVectorTime);

  EXPECT_EQ(signed_request.canonical_request, v.canonical_request);
  EXPECT_EQ(signed_request.string_to_sign, v.string_to_sign);
  EXPECT_EQ(signed_request.signature, v.signature);
  const std::string signed_names =
      v.canonical_request.substr(v.canonical_request.rfind("\n\n") + 2, std::string::npos);
  const std::string expected_authorization =
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
      "SignedHeaders=" +
      signed_names.substr(0, signed_names.find('\n')) + ", Signature=" + v.signature;
  ASSERT_FALSE(signed_request.headers.empty());
  EXPECT_EQ(signed_request.headers.back().name, "Authorization");
  EXPECT_EQ(signed_request.headers.back().value, expected_authorization);
  EXPECT_EQ(signed_request.headers.front().name, "X-Amz-Date");
  EXPECT_EQ(signed_request.headers.front().value, "20150830T123600Z");
}

INSTANTIATE_TEST_SUITE_P(AwsSigV4TestSuite, SigV4Suite, ::testing::ValuesIn(suite()),
                         [](const ::testing::TestParamInfo<Vector>& vector) {
                           return vector.param.name;
                         });

// The AWS General Reference's worked example: IAM ListUsers.
TEST(SigV4IamExample, DerivesTheDocumentedSigningKeyAndSignature) {
  const SigV4Scope scope{.region = "us-east-1", .service = "iam"};
  EXPECT_EQ(hex_lower(sigv4_signing_key(kExampleCredentials.secret_access_key, "20150830", scope)),
            "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9");

  const SigV4Signature signed_request =
      sign_sigv4({.method = "GET",
                  .path = "/",
                  .query = {{"Action", "ListUsers"}, {"Version", "2010-05-08"}},
                  .headers = {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
                              {"Host", "iam.amazonaws.com"}}},
                 kExampleCredentials, scope, kVectorTime);
  EXPECT_EQ(signed_request.string_to_sign,
            "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/iam/aws4_request\n"
            "f536975d06c0309214f805bb90ccff089219ecd68b2577efef23edd43b7e1a59");
  EXPECT_EQ(signed_request.signature,
            "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
  EXPECT_EQ(signed_request.headers.back().value,
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date, "
            "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7");
}

TEST(SigV4Refusals, HeadersTheSignerOwnsAMissingHostAndLineBreaks) {
  const auto sign_with = [](std::vector<HttpHeader> headers) {
    return sign_sigv4({.method = "POST", .headers = std::move(headers)}, kExampleCredentials,
                      {.region = "us-east-1", .service = "dynamodb"}, kVectorTime);
  };
  EXPECT_THROW(sign_with({kHost, {"X-Amz-Date", "20150830T123600Z"}}), InvalidInputError);
  EXPECT_THROW(sign_with({kHost, {"authorization", "x"}}), InvalidInputError);
  EXPECT_THROW(sign_with({kHost, {"x-amz-security-token", "x"}}), InvalidInputError);
  EXPECT_THROW(sign_with({{"Content-Type", "application/x-amz-json-1.0"}}), InvalidInputError);
  EXPECT_THROW(sign_with({kHost, {"X-Evil", "a\r\nInjected: yes"}}), InvalidInputError);
  EXPECT_THROW(sign_with({kHost, {"Bad Name", "x"}}), InvalidInputError);
  EXPECT_NO_THROW(sign_with({kHost}));
}

TEST(SigV4Date, FormatsUtcToTheSecond) {
  EXPECT_EQ(sigv4_amz_date(kVectorTime + 999ms), "20150830T123600Z");
  EXPECT_EQ(sigv4_amz_date(std::chrono::sys_days(std::chrono::year{2026} / 1 / 2) + 3h + 4min + 5s),
            "20260102T030405Z");
}

}  // namespace aws_sigv4_vectors_test
}  // namespace docket::kit::http
