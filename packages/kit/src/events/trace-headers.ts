// Carries the OpenTelemetry trace context with an event: captured as plain headers when the event is
// enqueued, stored with the outbox row, sent as NATS headers, and restored around the consumer's handler.

import type { MsgHdrs } from '@nats-io/transport-node';
import { type Context, context, propagation, ROOT_CONTEXT, type TextMapGetter } from '@opentelemetry/api';

export type TraceHeaders = Record<string, string>;

/** The active trace context (`traceparent`, `tracestate`, ...) as headers; empty outside a trace. */
export function captureTraceHeaders(): TraceHeaders {
  const carrier: TraceHeaders = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

const natsHeadersGetter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => carrier?.keys() ?? [],
  get: (carrier, key) => (carrier?.has(key) ? carrier.get(key) : undefined),
};

/** The trace context an event was enqueued in, or the root context when it carried none. */
export function contextFromNatsHeaders(headers: MsgHdrs | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, headers, natsHeadersGetter);
}
