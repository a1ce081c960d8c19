// Runs the handling of one event as a consumer span inside the trace the event was enqueued in, so the
// handler's logs, queries and outgoing calls join the trace of the request that caused the event.
import type { EventEnvelope } from '@engram/proto/events/v1/envelope';
import type { JsMsg } from '@nats-io/jetstream';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { inSpan } from '../telemetry.js';
import { contextFromNatsHeaders } from './trace-headers.js';

const tracer = trace.getTracer('@engram/kit/events');

export function runInEventContext<T>(
  msg: JsMsg,
  envelope: EventEnvelope,
  consumer: string,
  work: () => Promise<T>,
): Promise<T> {
  const attributes = {
    'messaging.system': 'nats',
    'messaging.operation.type': 'process',
    'messaging.destination.name': msg.subject,
    'messaging.consumer.group.name': consumer,
    'messaging.message.id': envelope.id,
    'messaging.message.delivery_count': msg.info.deliveryCount,
  };
  return context.with(contextFromNatsHeaders(msg.headers), () =>
    inSpan(tracer, `process ${envelope.type}`, work, { kind: SpanKind.CONSUMER, attributes }),
  );
}
