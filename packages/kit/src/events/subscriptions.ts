// Typed handlers on the event catalogue: `on(UserDeleted, async (payload, { envelope, tx }) => ...)`
// decodes the payload with the catalogue's message, so a consumer names an event once and gets its type.
import type { EventDefinition } from '@engram/contracts/events';
import type { EventEnvelope } from '@engram/proto/events/v1/envelope';
import type { EventHandler } from './apply-once.js';

export interface EventContext<Tx> {
  envelope: EventEnvelope;
  /** The consumer's transaction; the processed-event record commits with the handler's writes. */
  tx: Tx;
}

export interface Subscription<Tx> {
  readonly event: EventDefinition<unknown>;
  handle(payload: unknown, context: EventContext<Tx>): Promise<void>;
  /** Whether the event concerns this consumer at all; one that does not is acknowledged untouched. */
  readonly accepts?: (payload: unknown) => boolean;
}

export interface SubscriptionOptions<T> {
  /**
   * Decides from the payload alone whether to handle the event. Events it refuses are acknowledged
   * without a transaction or a processed-event record: for a consumer that cares about a few of a busy
   * event's deliveries (organizations, of the reviews of shared decks' copies among every review).
   */
  when?: (payload: T) => boolean;
}

export function on<T, Tx>(
  event: EventDefinition<T>,
  handle: (payload: T, context: EventContext<Tx>) => Promise<void>,
  options: SubscriptionOptions<T> = {},
): Subscription<Tx> {
  return {
    event: event as EventDefinition<unknown>,
    handle: handle as Subscription<Tx>['handle'],
    ...(options.when && { accepts: options.when as (payload: unknown) => boolean }),
  };
}

/** The subjects to consume and the handler that decodes each event and runs its subscription. */
export function dispatch<Tx>(subscriptions: Subscription<Tx>[]): {
  types: string[];
  handle: EventHandler<Tx>;
  /** Whether this consumer handles the envelope: its type is subscribed, and its `when` (if any) accepts it. */
  wants(envelope: EventEnvelope): boolean;
} {
  const bySubject = new Map<string, Subscription<Tx>>();
  for (const subscription of subscriptions) {
    if (bySubject.has(subscription.event.subject)) {
      throw new Error(`two handlers for ${subscription.event.subject} in one consumer`);
    }
    bySubject.set(subscription.event.subject, subscription);
  }
  if (bySubject.size === 0) throw new Error('a consumer needs at least one event to handle');
  return {
    types: [...bySubject.keys()],
    wants(envelope) {
      const subscription = bySubject.get(envelope.type);
      if (!subscription) return false;
      return !subscription.accepts || subscription.accepts(subscription.event.message.decode(envelope.payload));
    },
    async handle(envelope, tx) {
      const subscription = bySubject.get(envelope.type);
      if (!subscription) throw new Error(`no handler for ${envelope.type}`);
      await subscription.handle(subscription.event.message.decode(envelope.payload), { envelope, tx });
    },
  };
}
