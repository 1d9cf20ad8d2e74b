#include "docket/core/trace_context.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace docket {
namespace {

constexpr std::string_view kValid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST(TraceParentTest, ParsesTheW3cExample) {
  const auto parent = parse_traceparent(kValid);
  ASSERT_TRUE(parent.has_value());
  EXPECT_EQ(parent->version, 0x00);
  EXPECT_EQ(parent->trace_id,
            (std::array<std::uint8_t, 16>{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3,
                                          0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}));
  EXPECT_EQ(parent->parent_id,
            (std::array<std::uint8_t, 8>{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7}));
  EXPECT_EQ(parent->flags, 0x01);
  EXPECT_TRUE(parent->sampled());
  EXPECT_EQ(parent->to_string(), kValid);
}

TEST(TraceParentTest, KeepsUnknownFlagsAndReportsNotSampled) {
  const auto parent = parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-fe");
  ASSERT_TRUE(parent.has_value());
  EXPECT_EQ(parent->flags, 0xfe);
  EXPECT_FALSE(parent->sampled());
}

TEST(TraceParentTest, ToStringWritesLowerCaseHex) {
  TraceParent parent;
  parent.version = 0xab;
  parent.trace_id.fill(0xCD);
  parent.parent_id.fill(0x0F);
  parent.flags = 0x03;
  EXPECT_EQ(parent.to_string(), "ab-cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd-0f0f0f0f0f0f0f0f-03");
  EXPECT_EQ(parse_traceparent(parent.to_string()), parent);
}

TEST(TraceParentTest, AcceptsAFutureVersionWithAppendedFields) {
  const auto parent =
      parse_traceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra");
  ASSERT_TRUE(parent.has_value());
  EXPECT_EQ(parent->version, 0xcc);
  EXPECT_TRUE(parent->sampled());
  EXPECT_TRUE(
      parse_traceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").has_value());
}

struct Rejected {
  std::string name;
  std::string header;
};

// NOLINTNEXTLINE(readability-identifier-naming): the name GoogleTest looks up.
void PrintTo(const Rejected& rejected, std::ostream* out) {
  *out << rejected.name;
}

class TraceParentRejectTest : public testing::TestWithParam<Rejected> {};

TEST_P(TraceParentRejectTest, IsAbsent) {
  EXPECT_EQ(parse_traceparent(GetParam().header), std::nullopt) << GetParam().header;
  EXPECT_EQ(parse_trace_context(GetParam().header, "congo=t61rcWkgMzE"), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(
    Invalid, TraceParentRejectTest,
    testing::Values(
        Rejected{"Empty", ""},
        Rejected{"UpperCaseTraceId", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"},
        Rejected{"UpperCaseParentId", "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01"},
        Rejected{"UpperCaseFlags", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A"},
        Rejected{"UpperCaseVersion", "0A-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
        Rejected{"ZeroTraceId", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"},
        Rejected{"ZeroParentId", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"},
        Rejected{"VersionFf", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
        Rejected{"NonHexVersion", "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
        Rejected{"NonHexTraceId", "00-4bf92f3577b34da6a3ce929d0e0e473z-00f067aa0ba902b7-01"},
        Rejected{"NonHexFlags", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x"},
        Rejected{"ShortTraceId", "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"},
        Rejected{"LongTraceId", "00-4bf92f3577b34da6a3ce929d0e0e47361-00f067aa0ba902b7-01"},
        Rejected{"ShortParentId", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01"},
        Rejected{"LongParentId", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b71-01"},
        Rejected{"ShortFlags", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1"},
        Rejected{"ShortVersion", "0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
        Rejected{"Truncated", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-"},
        Rejected{"UnderscoreSeparators", "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01"},
        Rejected{"DoubleSeparator", "00--4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"},
        Rejected{"SeparatorsMoved", "00-4bf92f3577b34da6a3ce929d0e0e47-3600f067aa0ba902b7-01"},
        Rejected{"Version00WithSuffix",
                 "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"},
        Rejected{"Version00WithTrailingDash",
                 "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-"},
        Rejected{"FutureVersionSuffixWithoutDash",
                 "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01extra"},
        Rejected{"FutureVersionZeroTraceId",
                 "cc-00000000000000000000000000000000-00f067aa0ba902b7-01-extra"},
        Rejected{"LeadingSpace", " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
        Rejected{"TrailingSpace", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 "},
        Rejected{"EmbeddedNul",
                 std::string("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0\0", 55)}),
    [](const testing::TestParamInfo<Rejected>& param_info) { return param_info.param.name; });

TEST(TraceContextTest, KeepsAValidTracestateVerbatim) {
  for (std::string_view state : {
           "congo=t61rcWkgMzE",
           "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
           "rojo=00f067aa0ba902b7 ,\tcongo=t61rcWkgMzE",  // OWS around the comma
           "a=1,,b=2, ,c=3",                              // empty members are allowed
           ",a=1,",
           "fw529a3039@dt=m:1 x",  // tenant@system key
           "0tenant_-*/@s1_-*/=v",
           "k_-*/09=v",
           "k= leading-space-is-part-of-the-value",
           "k=trailing-space-is-ows ,l=v ",
           "k=!\"#$%&'()*+-./:;<>?@[\\]^_`{|}~",
       }) {
    const auto context = parse_trace_context(kValid, state);
    ASSERT_TRUE(context.has_value()) << state;
    EXPECT_EQ(context->state, state);
    EXPECT_EQ(context->parent, *parse_traceparent(kValid));
  }
}

TEST(TraceContextTest, EmptyTracestateIsAbsentState) {
  const auto context = parse_trace_context(kValid, "");
  ASSERT_TRUE(context.has_value());
  EXPECT_EQ(context->state, "");
}

std::string members(int count) {
  std::string state;
  for (int i = 0; i < count; ++i) {
    state += (i == 0 ? "" : ",") + ("k" + std::to_string(i)) + "=v";
  }
  return state;
}

TEST(TraceContextTest, AcceptsThirtyTwoMembersAndRefusesThirtyThree) {
  EXPECT_EQ(parse_trace_context(kValid, members(32))->state, members(32));
  EXPECT_EQ(parse_trace_context(kValid, members(32) + ",,")->state, members(32) + ",,");
  const auto context = parse_trace_context(kValid, members(33));
  ASSERT_TRUE(context.has_value()) << "the traceparent must be kept";
  EXPECT_EQ(context->state, "");
}

TEST(TraceContextTest, LengthLimitIs512Characters) {
  const std::string at_limit = "k=" + std::string(254, 'v') + ",l=" + std::string(253, 'v');
  ASSERT_EQ(at_limit.size(), 512u);
  EXPECT_EQ(parse_trace_context(kValid, at_limit)->state, at_limit);
  EXPECT_EQ(parse_trace_context(kValid, at_limit + ",")->state, "");
}

TEST(TraceContextTest, KeyAndValueLengthLimits) {
  const std::string longest_key = "k" + std::string(255, 'a');
  EXPECT_EQ(parse_trace_context(kValid, longest_key + "=v")->state, longest_key + "=v");
  EXPECT_EQ(parse_trace_context(kValid, longest_key + "a=v")->state, "");
  const std::string tenant241 = "t" + std::string(240, '0');
  const std::string system14 = "s" + std::string(13, 'z');
  EXPECT_EQ(parse_trace_context(kValid, tenant241 + "@" + system14 + "=v")->state,
            tenant241 + "@" + system14 + "=v");
  EXPECT_EQ(parse_trace_context(kValid, tenant241 + "0@s=v")->state, "");
  EXPECT_EQ(parse_trace_context(kValid, "t@" + system14 + "z=v")->state, "");
  const std::string value256 = std::string(256, 'v');
  EXPECT_EQ(parse_trace_context(kValid, "k=" + value256)->state, "k=" + value256);
  EXPECT_EQ(parse_trace_context(kValid, "k=" + value256 + "v")->state, "");
}

class TracestateRejectTest : public testing::TestWithParam<Rejected> {};

TEST_P(TracestateRejectTest, IsDroppedAndTheTraceparentKept) {
  const auto context = parse_trace_context(kValid, GetParam().header);
  ASSERT_TRUE(context.has_value());
  EXPECT_EQ(context->parent, *parse_traceparent(kValid));
  EXPECT_EQ(context->state, "") << GetParam().header;
}

INSTANTIATE_TEST_SUITE_P(
    Invalid, TracestateRejectTest,
    testing::Values(
        Rejected{"DuplicateKey", "a=1,b=2,a=3"}, Rejected{"DuplicateTenantKey", "t@s=1,t@s=2"},
        Rejected{"NoEquals", "a=1,b"}, Rejected{"EmptyKey", "=v"}, Rejected{"EmptyValue", "k="},
        Rejected{"UpperCaseKey", "Key=v"}, Rejected{"KeyStartsWithDigit", "1k=v"},
        Rejected{"KeyWithDot", "k.x=v"}, Rejected{"SpaceInsideKey", "k x=v"},
        Rejected{"SpaceBeforeEquals", "k =v"}, Rejected{"ValueWithEquals", "k=a=b"},
        Rejected{"ValueWithControl", "k=a\x01"}, Rejected{"ValueWithDel", "k=a\x7f"},
        Rejected{"ValueNonAscii", "k=caf\xC3\xA9"}, Rejected{"TwoAts", "t@s@x=v"},
        Rejected{"EmptyTenant", "@s=v"}, Rejected{"EmptySystem", "t@=v"},
        Rejected{"SystemStartsWithDigit", "t@1s=v"},
        Rejected{"TenantStartsWithUnderscore", "_t@s=v"}, Rejected{"UpperCaseSystem", "t@S=v"},
        Rejected{"NewlineAsSeparator", "a=1\nb=2"}, Rejected{"ThirtyThreeMembers", members(33)}),
    [](const testing::TestParamInfo<Rejected>& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace docket
