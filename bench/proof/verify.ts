// After each scenario: was every review the app acknowledged stored exactly once, and did its effects
// happen exactly once? Read straight from the services' schemas: cards' review log (one row per review
// id), each item's review count against its log, each learner's day counters against their log, and
// organizations' read model of deck reviews (fed by the ReviewRecorded events) for reviews of copies.
// And was every account deletion acknowledged carried out by every service (the UserDeleted event's
// effect), leaving nothing of the person?
import { parseDatabaseUrl, searchPathOption } from '@engram/kit/db';
import { erasedUserHash } from '@engram/kit/events/erased-users';
import { serviceDatabaseUrl } from '@engram/local/components';
import { waitUntil } from '@engram/testkit/wait';
import pg from 'pg';
import type { Acknowledged } from './load.ts';

export async function schemaClient(databaseUrl: string, schema: string): Promise<pg.Client> {
  const { connectionString } = parseDatabaseUrl(serviceDatabaseUrl(databaseUrl, schema));
  const client = new pg.Client({ connectionString, options: searchPathOption(schema) });
  await client.connect();
  return client;
}

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

/** What cards and organizations hold of the acknowledged reviews, read straight from their schemas. */
export interface ReviewFacts {
  /** How many rows of cards' review log each acknowledged review id has. */
  logged: Map<string, number>;
  /** Each reviewed item's review count, and the rows of its log that count. */
  items: { id: string; reps: number; logs: number }[];
  /** Each learner's reviews counted by their days, and in their log. */
  days: Map<string, number>;
  logs: Map<string, number>;
  /** How many rows of organizations' read model each acknowledged review of a deck copy has. */
  inReadModel: Map<string, number>;
}

/** What was lost or duplicated of the reviews acknowledged so far (`all`), given what the services hold. */
export function tallyReviews(all: Acknowledged[], facts: ReviewFacts): Tally {
  const tally: Tally = { lost: 0, duplicated: 0, details: [] };
  const note = (kind: 'lost' | 'duplicated', n: number, what: string) => {
    if (n <= 0) return;
    tally[kind] += n;
    tally.details.push(`${kind} ${n}: ${what}`);
  };
  for (const { reviewId: id } of all) {
    const n = facts.logged.get(id) ?? 0;
    note('lost', n === 0 ? 1 : 0, `review ${id} acknowledged but not in cards' review log`);
    note('duplicated', n - 1, `review ${id} logged ${n} times`);
  }
  for (const item of facts.items) {
    note('duplicated', item.reps - item.logs, `item ${item.id} counts ${item.reps} reviews, its log ${item.logs}`);
    note('lost', item.logs - item.reps, `item ${item.id} counts ${item.reps} reviews, its log ${item.logs}`);
  }
  for (const user of new Set(all.map((review) => review.userId))) {
    const counted = facts.days.get(user) ?? 0;
    const inLog = facts.logs.get(user) ?? 0;
    note('duplicated', counted - inLog, `learner ${user}'s days count ${counted} reviews, the log ${inLog}`);
    note('lost', inLog - counted, `learner ${user}'s days count ${counted} reviews, the log ${inLog}`);
  }
  for (const { reviewId: id } of all.filter((review) => review.copy)) {
    const n = facts.inReadModel.get(id) ?? 0;
    note('lost', n === 0 ? 1 : 0, `review ${id} of a deck copy never reached organizations' progress`);
    note('duplicated', n - 1, `review ${id} counted ${n} times in organizations' progress`);
  }
  return tally;
}

/**
 * Checks every review acknowledged so far (`all`); the counters are cumulative, so each is compared
 * with the whole log of the learners concerned.
 */
export async function verifyReviews(databaseUrl: string, all: Acknowledged[]): Promise<Tally> {
  const cards = await schemaClient(databaseUrl, 'cards');
  const organizations = await schemaClient(databaseUrl, 'organizations');
  try {
    const ids = all.map((review) => review.reviewId);
    const logged = await counts(
      cards,
      'select id::text as key, count(*) as n from review_logs where id = any($1::uuid[]) group by id',
      [ids],
    );
    const items = [...new Set(all.map((review) => review.itemId))];
    const { rows } = await cards.query<{ id: string; reps: number; logs: string }>(
      `select i.id, i.reps, (select count(*) from review_logs l where l.item_id = i.id and l.undone_at is null) as logs
         from review_items i where i.id = any($1::uuid[])`,
      [items],
    );
    const users = [...new Set(all.map((review) => review.userId))];
    const days = await counts(
      cards,
      'select owner_id as key, sum(reviews) as n from review_days where owner_id = any($1) group by owner_id',
      [users],
    );
    const logs = await counts(
      cards,
      'select owner_id as key, count(*) as n from review_logs where owner_id = any($1) and undone_at is null group by owner_id',
      [users],
    );

    // Organizations' progress is counted from the copies' reviews the events brought.
    const copies = all.filter((review) => review.copy).map((review) => review.reviewId);
    const inReadModel = () =>
      counts(
        organizations,
        'select review_id as key, count(*) as n from deck_reviews where review_id = any($1) group by review_id',
        [copies],
      );
    await waitUntil(
      'organizations has counted every acknowledged review of a deck copy',
      async () => (await inReadModel()).size === copies.length,
      EVENTS_SETTLE_MS,
    ).catch(() => {});
    return tallyReviews(all, {
      logged,
      items: rows.map((item) => ({ id: item.id, reps: item.reps, logs: Number(item.logs) })),
      days,
      logs,
      inReadModel: await inReadModel(),
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
