// Late synced reviews of one card: a learner's card already holds STORED reviews of the last day (synced from a
// device), then another device syncs 50 reviews of the same card done over the four weeks before them, in one
// cards.syncReviews call. Each late review goes where its time puts it, and every review after it is scheduled
// again (services/cards/src/review/late-review.ts). The expected outcome: the call answers every review kept
// (recorded, or a duplicate: recorded by an earlier attempt of the same call, which the gateway sends again when
// cards answers UNAVAILABLE), the card counts each of them once, and nothing else is hurt.
import { randomUUID } from 'node:crypto';
import { RATINGS } from '@engram/contracts/learning';
import { SYNC_BATCH_MAX } from '@engram/contracts/offline';
import { schemaClient } from '../schema-client.ts';
import { call, type HostileLearner, hostileLearner, send } from './learner.ts';

const LATE = 50;
/** The reviews already stored, each after every late one: as many as one sync takes beside the late ones. */
const STORED = SYNC_BATCH_MAX - LATE;
const DAY_MS = 86_400_000;
const CALL_BOUND_MS = 120_000;

/** `count` reviews of `itemId` spread evenly from `from` to `to` (epoch ms), as a device queues them. */
const reviewsOf = (itemId: string, count: number, from: number, to: number) =>
  Array.from({ length: count }, (_, i) => ({
    reviewId: randomUUID(),
    id: itemId,
    rating: RATINGS[i % RATINGS.length],
    durationMs: 4_000,
    reviewedAt: new Date(from + ((to - from) * i) / Math.max(1, count - 1)).toISOString(),
  }));

export const LATE_SYNC: HostileLearner = {
  name: `${LATE} late synced reviews of one card (before ${STORED} stored)`,
  expected: `all ${LATE} kept and counted once`,
  async ready(stack) {
    const who = await hostileLearner(stack, 'proof-late-syncer');
    await call(stack.url, who, 'cards.create', { front: 'one card', back: 'many reviews' }, 'mutation');
    const itemId = (await call(stack.url, who, 'cards.listDue', {}, 'query')).items[0].id as string;
    // A review is never dated before its card: the card was made before the four weeks its reviews span.
    await cardMadeEarlier(stack.databaseUrl, itemId, 30 * DAY_MS);
    const now = Date.now();
    const stored = reviewsOf(itemId, STORED, now - DAY_MS, now - 60_000);
    const first = await call(stack.url, who, 'cards.syncReviews', { reviews: stored }, 'mutation');
    const recorded = first.results.filter((result: { status: string }) => result.status === 'recorded').length;
    if (recorded !== STORED) throw new Error(`${recorded} of the ${STORED} stored reviews were recorded`);
    return async () => {
      const late = reviewsOf(itemId, LATE, now - 28 * DAY_MS, now - 2 * DAY_MS);
      const started = performance.now();
      const answer = await send(stack.url, who, 'cards.syncReviews', { reviews: late }, 'mutation', CALL_BOUND_MS);
      const seconds = `${((performance.now() - started) / 1000).toFixed(1)} s`;
      const statuses = new Map<string, number>();
      for (const result of answer.data?.results ?? [])
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      const problems: string[] = [];
      if (answer.status !== 200) problems.push(`the sync answered ${answer.status} ${answer.message}`);
      else if ((statuses.get('recorded') ?? 0) + (statuses.get('duplicate') ?? 0) !== LATE) {
        problems.push(`the sync answered ${JSON.stringify([...statuses])}`);
      }
      const counted = await reviewsCounted(stack.databaseUrl, itemId);
      if (counted.reps !== STORED + LATE || counted.logs !== STORED + LATE) {
        problems.push(`the card counts ${counted.reps} reviews and logs ${counted.logs}, not ${STORED + LATE}`);
      }
      const outcome = `the sync answered ${answer.status} in ${seconds} (${[...statuses].map(([status, n]) => `${n} ${status}`).join(', ') || 'no results'})`;
      return { outcome, problems };
    };
  },
};

/** Dates the card of `itemId` `ms` earlier, as a card made a month ago. */
async function cardMadeEarlier(databaseUrl: string, itemId: string, ms: number) {
  const cards = await schemaClient(databaseUrl, 'cards');
  try {
    await cards.query(
      `update cards c set created_at = c.created_at - make_interval(secs => $2)
         from review_items i where i.id = $1 and c.id = i.card_id`,
      [itemId, ms / 1000],
    );
  } finally {
    await cards.end();
  }
}

/** The card's review count and the rows of its log that count, read from cards' schema. */
async function reviewsCounted(databaseUrl: string, itemId: string) {
  const cards = await schemaClient(databaseUrl, 'cards');
  try {
    const { rows } = await cards.query<{ reps: number; logs: string }>(
      `select i.reps, (select count(*) from review_logs l where l.item_id = i.id and l.undone_at is null) as logs
         from review_items i where i.id = $1`,
      [itemId],
    );
    return { reps: rows[0]?.reps ?? 0, logs: Number(rows[0]?.logs ?? 0) };
  } finally {
    await cards.end();
  }
}
