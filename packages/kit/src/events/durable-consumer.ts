// Creating or updating a service's durable pull consumer on the events stream.
import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

export interface DurableConsumerOptions {
  streamName: string;
  name: string;
  /** Full NATS subjects (prefix included). More than one needs NATS 2.10+. */
  filterSubjects: string[];
  ackWaitMs: number;
  maxAckPending: number;
}

/**
 * The filter subjects of a consumer of `subjects`. Several that differ only in their last token (the
 * events of one aggregate: `….member.added`, `….member.removed`) become one wildcard (`….member.*`):
 * NATS before 2.10 filters a consumer on one subject only, and one filter keeps those events in the
 * order they were published, which a consumer per event would not. The consumer then skips the
 * aggregate's other events, if any. Subjects of several aggregates stay a list (NATS 2.10+).
 */
export function consumerFilter(subjects: string[]): string[] {
  if (subjects.length < 2) return subjects;
  const parents = new Set(subjects.map((subject) => subject.slice(0, subject.lastIndexOf('.'))));
  const [parent] = parents;
  return parents.size === 1 && parent ? [`${parent}.*`] : subjects;
}

function filterConfig(subjects: string[]): Partial<ConsumerConfig> {
  if (subjects.length === 0) throw new Error('a consumer needs at least one filter subject');
  // The other key is cleared explicitly, so an update can switch between one subject and several.
  return subjects.length === 1
    ? { filter_subject: subjects[0], filter_subjects: undefined }
    : { filter_subject: undefined, filter_subjects: subjects };
}

export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  options: DurableConsumerOptions,
): Promise<ConsumerInfo> {
  const settings = {
    ack_wait: nanos(options.ackWaitMs),
    // Unlimited on the server on purpose: the consumer itself parks an event after its own maxDeliver
    // failed attempts. A server-side limit would drop the message silently instead when the last
    // attempt's park could not be published, when the process crashed, or while PostgreSQL was down.
    max_deliver: -1,
    max_ack_pending: options.maxAckPending,
    ...filterConfig(options.filterSubjects),
  };
  try {
    return await jsm.consumers.update(options.streamName, options.name, settings);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound)) throw error;
  }
  return jsm.consumers.add(options.streamName, {
    durable_name: options.name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ...settings,
  });
}
