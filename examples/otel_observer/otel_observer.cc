// OpenTelemetry spans for docket's messages: an Observer (docket/core/observer.h) that
// opens a span per message the inbox dispatcher processes (kind consumer) and per
// message the outbox relay publishes (kind producer), whose parent is the producer's
// trace context docket stored with the message (W3C traceparent/tracestate), so a trace
// follows a message from the producer's commit to the handler. Attributes follow
// OpenTelemetry's messaging semantic conventions.
//
// Built only where OpenTelemetry's C++ SDK is installed (examples/otel_observer/
// CMakeLists.txt); it prints the spans with the ostream exporter. In a service, give
// the provider an OTLP exporter instead.
#include <opentelemetry/context/propagation/text_map_propagator.h>
#include <opentelemetry/exporters/ostream/span_exporter_factory.h>
#include <opentelemetry/sdk/trace/simple_processor_factory.h>
#include <opentelemetry/sdk/trace/tracer_provider_factory.h>
#include <opentelemetry/trace/context.h>
#include <opentelemetry/trace/propagation/http_trace_context.h>
#include <opentelemetry/trace/provider.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/docket.h"

namespace otel = opentelemetry;
namespace trace_api = opentelemetry::trace;

namespace {

// A view of docket's as OpenTelemetry takes it (valid as long as docket's).
otel::nostd::string_view view(std::string_view text) {
  return {text.data(), text.size()};
}

// The two W3C headers docket stores, as a carrier OpenTelemetry's propagator reads.
class StoredHeaders final : public otel::context::propagation::TextMapCarrier {
 public:
  StoredHeaders(std::string_view traceparent, std::string_view tracestate)
      : traceparent_(traceparent), tracestate_(tracestate) {}

  otel::nostd::string_view Get(otel::nostd::string_view key) const noexcept override {
    if (key == "traceparent") {
      return view(traceparent_);
    }
    if (key == "tracestate") {
      return view(tracestate_);
    }
    return "";
  }
  void Set(otel::nostd::string_view, otel::nostd::string_view) noexcept override {}

 private:
  std::string_view traceparent_;
  std::string_view tracestate_;
};

class OtelObserver final : public docket::Observer {
 public:
  explicit OtelObserver(otel::nostd::shared_ptr<trace_api::Tracer> tracer)
      : tracer_(std::move(tracer)) {}

  // The span lives on the heap until its end: the token is its address.
  docket::SpanToken on_message_begin(const docket::MessageStart& message) override {
    const bool process = message.role == docket::MessageRole::kProcess;
    trace_api::StartSpanOptions options;
    options.kind = process ? trace_api::SpanKind::kConsumer : trace_api::SpanKind::kProducer;
    // The producer's context as stored; an absent or malformed one extracts as invalid,
    // and the span starts a trace of its own.
    const StoredHeaders headers(message.traceparent, message.tracestate);
    trace_api::propagation::HttpTraceContext propagator;
    otel::context::Context empty;
    const otel::context::Context extracted = propagator.Extract(headers, empty);
    const trace_api::SpanContext parent = trace_api::GetSpan(extracted)->GetContext();
    if (parent.IsValid()) {
      options.parent = parent;
    }
    const std::string name =
        std::string(process ? "process " : "send ") + std::string(message.consumer_or_destination);
    auto span = tracer_->StartSpan(
        name,
        {{"messaging.system", "docket"},
         {"messaging.operation.type", process ? "process" : "send"},
         {process ? "messaging.consumer.group.name" : "messaging.destination.name",
          view(message.consumer_or_destination)},
         {"messaging.message.id", view(message.message_id)},
         {"docket.event_type", view(message.event_type)},
         {"docket.attempt", message.attempt}},
        options);
    auto* held = new otel::nostd::shared_ptr<trace_api::Span>(std::move(span));
    return reinterpret_cast<std::uintptr_t>(held);
  }

  void on_message_end(docket::SpanToken token, const docket::MessageStart&,
                      const docket::MessageEnd& end) override {
    if (token == 0) {
      return;  // on_message_begin threw: there is no span
    }
    std::unique_ptr<otel::nostd::shared_ptr<trace_api::Span>> held(
        reinterpret_cast<otel::nostd::shared_ptr<trace_api::Span>*>(
            static_cast<std::uintptr_t>(token)));
    trace_api::Span& span = **held;
    span.SetAttribute("docket.outcome", view(docket::to_string(end.outcome)));
    if (!end.error.empty()) {
      span.SetStatus(trace_api::StatusCode::kError, view(end.error));
    }
    span.End();
  }

 private:
  otel::nostd::shared_ptr<trace_api::Tracer> tracer_;
};

}  // namespace

int main() {
  auto processor = otel::sdk::trace::SimpleSpanProcessorFactory::Create(
      otel::exporter::trace::OStreamSpanExporterFactory::Create());
  std::shared_ptr<trace_api::TracerProvider> provider =
      otel::sdk::trace::TracerProviderFactory::Create(std::move(processor));
  auto observer = std::make_shared<OtelObserver>(provider->GetTracer("docket-example"));

  // The producer's side: a message staged with the trace context of the request that
  // caused it, then relayed; the relay's span is a child of that context.
  const std::string traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto outbox_store = docket::open_outbox_store("memory:");
  {
    const docket::Outbox outbox(*outbox_store);
    auto unit = outbox_store->begin();
    outbox.stage(unit->handler_transaction(),
                 {.event_type = "OrderPlaced", .payload = "{}", .traceparent = traceparent});
    unit->commit();
  }
  docket::InProcessTransport transport(16);
  docket::Relay relay(*outbox_store, transport, docket::RelayOptions({}, observer));
  relay.drain();

  // The consumer's side: the delivered envelope carries the same trace context, and the
  // dispatcher's span continues that trace.
  auto subscription = transport.subscribe({});
  auto delivery = subscription.next(std::chrono::milliseconds(0));
  if (!delivery) {
    std::cerr << "otel_observer: the relay published nothing\n";
    return 1;
  }
  auto inbox_store = docket::open_inbox_store("memory:");
  docket::HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [](const nlohmann::json&, docket::HandlerContext&) {});
  const docket::InboxDispatcher inbox(
      *inbox_store, docket::InboxOptions("billing", docket::DedupCheck::kBeforeHandlers, observer),
      std::move(handlers));
  inbox.dispatch(delivery->message.envelope);
  subscription.acknowledge(delivery->tag);
  return 0;
}
