// The reference terms of the key specifications, shared by the tool tests.
#ifndef DOCKET_TESTS_TOOL_REFERENCE_TERMS_H_
#define DOCKET_TESTS_TOOL_REFERENCE_TERMS_H_

#include <string_view>

namespace docket::testing {

inline constexpr std::string_view kOrderHandler = "MyApp.Handlers.OrderHandler";

// 36-character GUIDs used as tenant and message id in the over-long reference case.
inline constexpr std::string_view kGuidTenant = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
inline constexpr std::string_view kGuidMessageId = "9b2d1c7a-6e04-4f3b-8a51-2c9e7d0f4b16";

// The .NET assembly-qualified name of Dictionary<string, List<string>>: 477 characters.
// Percent-encoded, the Elasticsearch id of (kGuidTenant, kGuidMessageId, this) is 665
// bytes, over the 512-byte _id limit; the Firestore id fits under 1500.
inline constexpr std::string_view kDictionaryHandler =
    "System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreL"
    "ib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e],[Sys"
    "tem.Collections.Generic.List`1[[System.String, System.Private.CoreLib, Versi"
    "on=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e]], System.Priv"
    "ate.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea77"
    "98e]], System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, PublicKeyT"
    "oken=7cec85d7bea7798e";
static_assert(kDictionaryHandler.size() == 477);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_REFERENCE_TERMS_H_
