// After each scenario: was every review the app acknowledged stored exactly once, and did its effects
// happen exactly once? Read straight from the services' schemas: each learner's review log in cards (every row
// one review the load sent, none twice), each item's review count against its log, each learner's day counters
// against their log, and the reviews of deck copies organizations' progress counts (fed by the ReviewRecorded
// events; again every one a review sent, none twice). And was every account deletion carried out by every
// service (the UserDeleted event's effect), leaving nothing of the person?
import { erasedUserHash } from '@engram/kit/events/erased-users';
import { waitUntil } from '@engram/testkit/wait';
import type pg from 'pg';
import type { SentReview } from './load.ts';
import { schemaClient } from './schema-client.ts';

export interface Tally {
  lost: number;
  duplicated: number;
  /** What was lost or duplicated, for the report under the table. */
  details: string[];
}

// How long events may take to reach organizations once the load has stopped.
const EVENTS_SETTLE_MS = 60_000;

async function counts(client: pg.Client, sql: string, values: unknown[]): Promise<Map<string, number>> {
  const { rows } = await client.query<{ key: string; n: string }>(sql, values);
  return new Map(rows.map((row) => [row.key, Number(row.n)]));
}

/** What cards and organizations hold of the learners' reviews, read straight from their schemas. */
export interface ReviewFacts {
  /** Each learner's review log, a row per review that counts: its review id, and whether its card is a deck copy. */
  logged: Map<string, { id: string; copy: boolean }[]>;
  /** Each reviewed item's review count, and the rows of its log that count. */
  items: { id: string; reps: number; logs: number }[];
  /** Each learner's reviews as their days count them. */
  days: Map<string, number>;
  /** Each learner's reviews of deck copies as organizations' progress counts them: the review id of each. */
  progress: Map<string, string[]>;
}

/**
 * What was lost or duplicated of the reviews sent so far (`reviews`), given what the services hold of those
 * learners. Every row of a log, and every review progress counts, must be one review the load sent, once; so a
 * review stored or counted twice shows as a row no review id accounts for. A review sent but never acknowledged
 * may have been stored (its answer lost): it may be there, once, or not at all.
 */
export function tallyReviews(reviews: SentReview[], facts: ReviewFacts): Tally {
  const tally: Tally = { lost: 0, duplicated: 0, details: [] };
  const note = (kind: 'lost' | 'duplicated', n: number, what: string) => {
    if (n <= 0) return;
    tally[kind] += n;
    tally.details.push(`${kind} ${n}: ${what}`);
  };
  /** Compares one learner's rows with the reviews sent: those acknowledged missing, and rows beyond one per review. */
  const compare = (rows: string[], sent: SentReview[], where: string) => {
    const found = new Map<string, number>();
    for (const id of rows) found.set(id, (found.get(id) ?? 0) + 1);
    for (const review of sent) {
      if (review.acknowledged && !found.has(review.reviewId))
        note('lost', 1, `review ${review.reviewId} not in ${where}`);
    }
    const known = new Set(sent.map((review) => review.reviewId));
    const extra = [...found].reduce((sum, [id, n]) => sum + (known.has(id) ? n - 1 : n), 0);
    note('duplicated', extra, `${extra} more reviews in ${where} than the reviews sent account for`);
  };
  for (const user of new Set(reviews.map((review) => review.userId))) {
    const sent = reviews.filter((review) => review.userId === user);
    const logged = facts.logged.get(user) ?? [];
    compare(
      logged.map((row) => row.id),
      sent,
      `learner ${user}'s review log in cards`,
    );
    const counted = facts.days.get(user) ?? 0;
    note(
      'duplicated',
      counted - logged.length,
      `learner ${user}'s days count ${counted} reviews, the log ${logged.length}`,
    );
    note('lost', logged.length - counted, `learner ${user}'s days count ${counted} reviews, the log ${logged.length}`);
    // Organizations' progress counts every review of a copy that cards logged, acknowledged or not, once.
    const progress = facts.progress.get(user) ?? [];
    const copies = logged.filter((row) => row.copy).map((row) => row.id);
    compare(
      progress,
      sent.filter((review) => review.copy),
      `learner ${user}'s progress in organizations`,
    );
    const inProgress = new Set(progress);
    const acknowledged = new Set(sent.filter((review) => review.acknowledged).map((review) => review.reviewId));
    // An acknowledged one missing is counted above; this is one done though its answer was lost.
    const missing = copies.filter((id) => !inProgress.has(id) && !acknowledged.has(id));
    note(
      'lost',
      missing.length,
      `${missing.length} reviews of deck copies in cards never reached organizations' progress`,
    );
  }
  for (const item of facts.items) {
    note('duplicated', item.reps - item.logs, `item ${item.id} counts ${item.reps} reviews, its log ${item.logs}`);
    note('lost', item.logs - item.reps, `item ${item.id} counts ${item.reps} reviews, its log ${item.logs}`);
  }
  return tally;
}

// A learner's review log: the rows that count, each with whether its card is a deck copy.
const LOGGED = `
select l.owner_id as owner, l.id::text as id, c.deck_id is not null as copy
  from review_logs l left join cards c on c.id = l.card_id
 where l.owner_id = any($1) and l.undone_at is null`;

/**
 * Checks every review sent so far (`reviews`); the counters are cumulative, so each is compared with the whole log
 * of the learners concerned. Waits for organizations to count every review of a copy cards logged first.
 */
export async function verifyReviews(databaseUrl: string, reviews: SentReview[]): Promise<Tally> {
  const cards = await schemaClient(databaseUrl, 'cards');
  const organizations = await schemaClient(databaseUrl, 'organizations');
  try {
    const users = [...new Set(reviews.map((review) => review.userId))];
    const logged = new Map<string, { id: string; copy: boolean }[]>(users.map((user) => [user, []]));
    const { rows: logRows } = await cards.query<{ owner: string; id: string; copy: boolean }>(LOGGED, [users]);
    for (const row of logRows) logged.get(row.owner)?.push({ id: row.id, copy: row.copy });
    const items = [...new Set(reviews.map((review) => review.itemId))];
    const { rows } = await cards.query<{ id: string; reps: number; logs: string }>(
      `select i.id, i.reps, (select count(*) from review_logs l where l.item_id = i.id and l.undone_at is null) as logs
         from review_items i where i.id = any($1::uuid[])`,
      [items],
    );
    const days = await counts(
      cards,
      'select owner_id as key, sum(reviews) as n from review_days where owner_id = any($1) group by owner_id',
      [users],
    );
    const copies = logRows.filter((row) => row.copy).length;
    const readProgress = async () => {
      const progress = new Map<string, string[]>(users.map((user) => [user, []]));
      const { rows: counted } = await organizations.query<{ owner: string; id: string }>(
        'select user_id as owner, review_id as id from deck_reviews where user_id = any($1)',
        [users],
      );
      for (const row of counted) progress.get(row.owner)?.push(row.id);
      return { progress, size: counted.length };
    };
    await waitUntil(
      "organizations' progress has counted every review of a deck copy cards logged",
      async () => (await readProgress()).size >= copies,
      EVENTS_SETTLE_MS,
    ).catch(() => {});
    return tallyReviews(reviews, {
      logged,
      items: rows.map((item) => ({ id: item.id, reps: item.reps, logs: Number(item.logs) })),
      days,
      progress: (await readProgress()).progress,
    });
  } finally {
    await Promise.all([cards.end(), organizations.end()]);
  }
}

// Where each erasure must show: the record of it in every service that keeps users' data, and no row of
// the user left in identity, cards or organizations (billing and ai hold nothing of the proof's leavers
// but the record).
const ERASING_SERVICES = ['cards', 'organizations', 'billing', 'ai'] as const;
const LEFT_BEHIND: [string, string][] = [
  ['identity', 'select count(*) as n from users where id = $1'],
  ['identity', 'select count(*) as n from members where user_id = $1'],
  ['cards', 'select count(*) as n from cards where owner_id = $1'],
  ['cards', 'select count(*) as n from review_items where owner_id = $1'],
  ['cards', 'select count(*) as n from review_logs where owner_id = $1'],
  ['organizations', 'select count(*) as n from members where user_id = $1'],
  ['organizations', 'select count(*) as n from subscriptions where user_id = $1'],
];

/**
 * Checks every account deletion acknowledged so far (`erased`: the users' ids): each service recorded the
 * erasure (once: the record is keyed by the id's hash, and a repeat of the event changes nothing), and
 * none of the user's rows is left. Waits for the events to arrive first.
 */
export async function verifyErasures(databaseUrl: string, erased: string[]): Promise<Tally> {
  const tally: Tally = { lost: 0, duplicated: 0, details: [] };
  const schemas = [...new Set([...ERASING_SERVICES, ...LEFT_BEHIND.map(([schema]) => schema)])];
  const clients = new Map(
    await Promise.all(schemas.map(async (schema) => [schema, await schemaClient(databaseUrl, schema)] as const)),
  );
  const client = (schema: string) => clients.get(schema) as pg.Client;
  const missing = async () => {
    const found: string[] = [];
    for (const userId of erased) {
      const hash = erasedUserHash(userId);
      for (const service of ERASING_SERVICES) {
        const { rows } = await client(service).query('select count(*) as n from erased_users where user_hash = $1', [
          hash,
        ]);
        if (Number(rows[0].n) === 0) found.push(`the deletion of ${userId} never reached ${service}`);
      }
      for (const [schema, sql] of LEFT_BEHIND) {
        const { rows } = await client(schema).query(sql, [userId]);
        if (Number(rows[0].n) > 0) found.push(`${rows[0].n} rows of ${userId} left in ${schema}: ${sql}`);
      }
    }
    return found;
  };
  try {
    await waitUntil(
      'every deletion erased the user everywhere',
      async () => (await missing()).length === 0,
      EVENTS_SETTLE_MS,
    ).catch(() => {});
    for (const what of await missing()) {
      tally.lost += 1;
      tally.details.push(`lost 1: ${what}`);
    }
  } finally {
    await Promise.all([...clients.values()].map((c) => c.end()));
  }
  return tally;
}

/** Whether identity no longer has the user (their deletion went through, answered or not). */
export async function accountGone(databaseUrl: string, userId: string): Promise<boolean> {
  const identity = await schemaClient(databaseUrl, 'identity');
  try {
    const { rows } = await identity.query('select count(*) as n from users where id = $1', [userId]);
    return Number(rows[0].n) === 0;
  } finally {
    await identity.end();
  }
}
