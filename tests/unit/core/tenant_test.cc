#include "docket/core/tenant.h"

#include <gtest/gtest.h>

#include <barrier>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "docket/core/error.h"

namespace docket {
namespace {

std::string refusal(std::string_view value) {
  try {
    TenantId tenant(value);
  } catch (const InvalidInputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "tenant id was accepted";
  return {};
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(TenantIdTest, AcceptsOrdinaryNames) {
  EXPECT_EQ(TenantId("acme").value(), "acme");
  EXPECT_EQ(TenantId("acme_corp:42/x").value(), "acme_corp:42/x");
  EXPECT_EQ(TenantId("\xE6\x97\xA5\xE6\x9C\xAC").value(), "\xE6\x97\xA5\xE6\x9C\xAC");
  EXPECT_EQ(TenantId(std::string(kMaxTenantIdBytes, 't')).value().size(), kMaxTenantIdBytes);
  // Surrounding white space is part of the name; docket never trims input.
  EXPECT_EQ(TenantId(" acme ").value(), " acme ");
}

TEST(TenantIdTest, DefaultTenantIsARealTenant) {
  EXPECT_EQ(TenantId::default_tenant().value(), "__default__");
  EXPECT_EQ(TenantId("__default__"), TenantId::default_tenant());
  EXPECT_FALSE(TenantId::default_tenant().is_untenanted());
}

TEST(TenantIdTest, UntenantedSentinelIsRefusedAsAName) {
  const std::string message = refusal("__untenanted__");
  EXPECT_TRUE(contains(message, "\"__untenanted__\" is reserved")) << message;
  EXPECT_TRUE(contains(message, "__default__")) << message;
  EXPECT_TRUE(TenantId::untenanted().is_untenanted());
  EXPECT_EQ(TenantId::untenanted().value(), "__untenanted__");
  // Only the exact sentinel is reserved.
  EXPECT_FALSE(TenantId("__untenanted__x").is_untenanted());
}

TEST(TenantIdTest, EmptyIsRefused) {
  const std::string message = refusal("");
  EXPECT_TRUE(contains(message, "tenant id is empty")) << message;
  EXPECT_TRUE(contains(message, "Pass a tenant name")) << message;
}

TEST(TenantIdTest, WhiteSpaceOnlyIsRefusedAsBlank) {
  for (std::string_view blank : {" ", "\t\r\n", "   \v\f",
                                 "\xC2\xA0",         // U+00A0 no-break space
                                 "\xE3\x80\x80 ",    // U+3000 ideographic space
                                 "\xE2\x80\xA8"}) {  // U+2028 line separator
    const std::string message = refusal(blank);
    EXPECT_TRUE(contains(message, "tenant id is blank")) << message;
    EXPECT_TRUE(contains(message, std::to_string(blank.size()) + " bytes of white space"))
        << message;
  }
  // A zero-width space is not white space: it is an (odd) name, not a blank one.
  EXPECT_NO_THROW(TenantId("\xE2\x80\x8B"));
}

TEST(TenantIdTest, InvalidUtf8IsRefusedWithTheDefect) {
  const std::string message = refusal("ac\xED\xA0\x80me");
  EXPECT_TRUE(contains(message, "tenant id is not valid UTF-8")) << message;
  EXPECT_TRUE(contains(message, "surrogate")) << message;
  EXPECT_TRUE(contains(message, "at byte 2")) << message;
}

TEST(TenantIdTest, TooLongIsRefusedWithSizes) {
  const std::string message = refusal(std::string(kMaxTenantIdBytes + 1, 't'));
  EXPECT_TRUE(contains(message, "257 bytes long; the maximum is 256 bytes")) << message;
  EXPECT_TRUE(contains(message, "Use a shorter tenant name")) << message;
}

TEST(TenantIdTest, OrdersAndComparesByValue) {
  EXPECT_EQ(TenantId("a"), TenantId("a"));
  EXPECT_NE(TenantId("a"), TenantId("b"));
  EXPECT_LT(TenantId("a"), TenantId("b"));
}

TEST(TenantScopeTest, NoScopeMeansNoTenant) {
  EXPECT_EQ(TenantScope::current(), std::nullopt);
  EXPECT_TRUE(TenantScope::current_or_untenanted().is_untenanted());
}

TEST(TenantScopeTest, NestedScopesRestoreTheOuterTenant) {
  {
    TenantScope outer(TenantId("outer"));
    EXPECT_EQ(TenantScope::current(), TenantId("outer"));
    {
      TenantScope inner(TenantId("inner"));
      EXPECT_EQ(TenantScope::current(), TenantId("inner"));
      EXPECT_EQ(TenantScope::current_or_untenanted(), TenantId("inner"));
      {
        TenantScope innermost(TenantId::default_tenant());
        EXPECT_EQ(TenantScope::current(), TenantId::default_tenant());
      }
      EXPECT_EQ(TenantScope::current(), TenantId("inner"));
    }
    EXPECT_EQ(TenantScope::current(), TenantId("outer"));
  }
  EXPECT_EQ(TenantScope::current(), std::nullopt);
}

TEST(TenantScopeTest, ScopeIsRestoredWhenAnExceptionUnwindsThroughIt) {
  TenantScope outer(TenantId("outer"));
  EXPECT_THROW(
      {
        TenantScope inner(TenantId("inner"));
        ASSERT_EQ(TenantScope::current(), TenantId("inner"));
        throw std::runtime_error("handler failed");
      },
      std::runtime_error);
  EXPECT_EQ(TenantScope::current(), TenantId("outer"));
}

TEST(TenantScopeTest, ScopeEndingOutOfOrderIsUnlinked) {
  auto first = std::make_unique<TenantScope>(TenantId("first"));
  auto second = std::make_unique<TenantScope>(TenantId("second"));
  auto third = std::make_unique<TenantScope>(TenantId("third"));
  second.reset();
  EXPECT_EQ(TenantScope::current(), TenantId("third"));
  third.reset();
  EXPECT_EQ(TenantScope::current(), TenantId("first"));
  first.reset();
  EXPECT_EQ(TenantScope::current(), std::nullopt);
}

TEST(TenantScopeTest, ScopesArePerThread) {
  // Both threads open their scope, meet, check what they see, meet again, and only
  // then close: each sees its own tenant while the other's scope is open.
  std::barrier meet(2);
  std::optional<TenantId> seen_a;
  std::optional<TenantId> seen_b;
  std::optional<TenantId> seen_a_after;
  auto run = [&meet](std::string_view name, std::optional<TenantId>& seen,
                     std::optional<TenantId>* seen_after) {
    {
      TenantScope scope(TenantId{name});
      meet.arrive_and_wait();
      seen = TenantScope::current();
      meet.arrive_and_wait();
    }
    if (seen_after != nullptr) {
      seen_after->emplace(TenantScope::current_or_untenanted());
    }
  };
  TenantScope main_scope(TenantId("main"));
  std::thread a(run, "tenant-a", std::ref(seen_a), &seen_a_after);
  std::thread b(run, "tenant-b", std::ref(seen_b), nullptr);
  a.join();
  b.join();
  EXPECT_EQ(seen_a, TenantId("tenant-a"));
  EXPECT_EQ(seen_b, TenantId("tenant-b"));
  EXPECT_EQ(seen_a_after, TenantId::untenanted());
  EXPECT_EQ(TenantScope::current(), TenantId("main"));
}

}  // namespace
}  // namespace docket
