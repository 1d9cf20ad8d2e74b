// Fuzz target for docket/core/trace_context.h. The input up to its first '\n' is a
// traceparent, the rest a tracestate. Parsing never throws (it is noexcept: a throw
// would terminate); a traceparent that parses prints back to a value that parses to the
// same, and at version 00 to the input itself; a trace context keeps a tracestate
// verbatim or drops it whole, and its parent is what the traceparent alone parses to.
// Any violation aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/trace_context.h"

namespace {

void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "trace context fuzz: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view traceparent = input.substr(0, newline);
  const std::string_view tracestate =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);

  const std::optional<docket::TraceParent> parent = docket::parse_traceparent(traceparent);
  if (parent) {
    const std::string printed = parent->to_string();
    require(docket::parse_traceparent(printed) == parent, "traceparent round trip");
    if (parent->version == 0) {
      require(printed == traceparent, "a version 00 traceparent prints as it was read");
    }
  }
  const std::optional<docket::TraceContext> context =
      docket::parse_trace_context(traceparent, tracestate);
  require(context.has_value() == parent.has_value(), "a context exactly when its traceparent");
  if (context) {
    require(context->parent == *parent, "the context's parent is the traceparent's");
    require(context->state.empty() || context->state == tracestate,
            "a tracestate kept verbatim or dropped whole");
  }
  return 0;
}
