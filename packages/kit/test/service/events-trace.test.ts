// The trace of the request that caused an event continues in the consumer's handler, so one trace
// follows a user's action across services and events.
import { startConsumer } from '@engram/kit/events/consumer';
import { enqueueEvent } from '@engram/kit/events/outbox';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { on } from '@engram/kit/events/subscriptions';
import { inSpan, startTelemetry } from '@engram/kit/telemetry';
import { trace } from '@opentelemetry/api';
import type pg from 'pg';
import { expect, it } from 'vitest';
import {
  CardCreated,
  cardCreatedPayload,
  inTransaction,
  recordCard,
  useEventsFixture,
  userActor,
  waitUntil,
} from '../events-fixture.ts';

const fixture = useEventsFixture();

it('runs the handler in the trace that enqueued the event', async () => {
  const { tracer } = startTelemetry({ service: 'events-trace-test' });
  const traceId = await inSpan(tracer, 'create card', async (span) => {
    await inTransaction(fixture.pool, (tx) =>
      enqueueEvent(tx, CardCreated, cardCreatedPayload(), { actor: userActor }),
    );
    return span.spanContext().traceId;
  });
  const cards = await startConsumer<pg.PoolClient>({
    ...fixture,
    service: 'cards',
    purpose: 'trace',
    subscriptions: [
      on(CardCreated, (_, { envelope, tx }) => recordCard(envelope, tx, trace.getActiveSpan()?.spanContext().traceId)),
    ],
  });
  const relay = startOutboxRelay({ ...fixture, pollIntervalMs: 200 });
  try {
    await waitUntil('the event is applied', async () => (await fixture.applied()).length > 0);

    const { rows } = await fixture.pool.query('SELECT headers FROM outbox_events');
    // Not sampled here (no exporter is configured, so spans are not recorded), but the same trace.
    expect(rows[0].headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
    expect((await fixture.applied())[0]?.trace_id).toBe(traceId);
  } finally {
    await relay.stop();
    await cards.stop();
  }
});
