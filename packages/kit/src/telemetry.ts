// OpenTelemetry tracing for one process: W3C trace context propagation, async context tracking, and
// span export over OTLP/HTTP only when an endpoint is configured. With no endpoint, spans still get ids
// (so trace ids reach logs, gRPC metadata and event headers) but are not recorded: nothing would read
// them, and recording cost the gateway about 5% of its CPU per request.
import {
  context,
  propagation,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

export interface TelemetryOptions {
  service: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT, e.g. http://otel-collector:4318; exporting is off when unset. */
  otlpEndpoint?: string | undefined;
}

export interface Telemetry {
  tracer: Tracer;
  shutdown(): Promise<void>;
}

let installed: Telemetry | undefined;

/** Installs the process-wide tracer provider, context manager and propagator (once per process). */
export function startTelemetry({ service, otlpEndpoint }: TelemetryOptions): Telemetry {
  if (installed) return installed;
  const spanProcessors: SpanProcessor[] = [];
  if (otlpEndpoint) {
    const url = `${otlpEndpoint.replace(/\/$/, '')}/v1/traces`;
    spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) }));
  }
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors,
    ...(otlpEndpoint ? {} : { sampler: new AlwaysOffSampler() }),
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  installed = {
    tracer: trace.getTracer(service),
    async shutdown() {
      await provider.shutdown();
    },
  };
  return installed;
}

/** Runs `work` in a new active span, recording an exception and error status if it throws. */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  work: (span: Span) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
