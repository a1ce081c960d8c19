// What a test arranges or checks behind the app's back, straight in the stack's database and Redis: a user
// banned while signed in, a session aged past its freshness, what is left of a deleted user, reviews in
// past weeks.
import { randomUUID } from 'node:crypto';
import type { TestStack } from '@engram/testkit/stack';
import { Redis } from 'ioredis';
import pg from 'pg';

async function withDatabase<T>(stack: TestStack, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The id of the user with `email`. */
export const userIdOf = (stack: TestStack, email: string): Promise<string> =>
  withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ id: string }>('select id from identity.users where email = $1', [email]);
    if (!rows[0]) throw new Error(`no user ${email}`);
    return rows[0].id;
  });

/** How many cards the user with `userId` still has. */
export const cardCountOf = (stack: TestStack, userId: string): Promise<number> =>
  withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ count: string }>('select count(*) from cards.cards where owner_id = $1', [
      userId,
    ]);
    return Number(rows[0]?.count ?? 0);
  });

/** Drops the cached copies of these sessions in Redis, so identity reads them (and their user) from PostgreSQL. */
async function dropCachedSessions(stack: TestStack, tokens: string[]): Promise<void> {
  const redis = new Redis(stack.settings.redisUrl);
  try {
    const prefix = stack.settings.redisKeyPrefix ?? 'engram:';
    for (const token of tokens) await redis.del(`${prefix}identity:${token}`);
  } finally {
    redis.disconnect();
  }
}

/** Makes every session of `userId` as old as `ageSeconds`. */
export async function ageSessions(stack: TestStack, userId: string, ageSeconds: number): Promise<void> {
  const tokens = await withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ token: string }>(
      `update identity.sessions set created_at = now() - make_interval(secs => $2) where user_id = $1 returning token`,
      [userId, ageSeconds],
    );
    return rows.map((row) => row.token);
  });
  await dropCachedSessions(stack, tokens);
}

/**
 * Flags `userId` as banned while their sessions live on. better-auth's own ban ends every session, so this is
 * the state of a user banned outside it (by an operator in the database): the app must still keep them out.
 */
export async function banKeepingSessions(stack: TestStack, userId: string): Promise<void> {
  const tokens = await withDatabase(stack, async (client) => {
    await client.query('update identity.users set banned = true where id = $1', [userId]);
    const { rows } = await client.query<{ token: string }>('select token from identity.sessions where user_id = $1', [
      userId,
    ]);
    return rows.map((row) => row.token);
  });
  await dropCachedSessions(stack, tokens);
}

/** Gives `userId` the admin role, as ADMIN_EMAILS would have at sign-up; their sessions see it at once. */
export async function makeAdmin(stack: TestStack, userId: string): Promise<void> {
  const tokens = await withDatabase(stack, async (client) => {
    await client.query(`update identity.users set role = 'admin' where id = $1`, [userId]);
    const { rows } = await client.query<{ token: string }>('select token from identity.sessions where user_id = $1', [
      userId,
    ]);
    return rows.map((row) => row.token);
  });
  await dropCachedSessions(stack, tokens);
}

export interface PastReview {
  /** When it happened. */
  at: Date;
  /** 1 Again, 2 Hard, 3 Good, 4 Easy. */
  rating: number;
  /** The item's state before it: 1 learning, 2 review (a mature card), 3 relearning. */
  stateBefore: number;
}

/**
 * Writes reviews of one of `userId`'s cards into their review log at past instants, as if they had
 * studied then. The service counts reviews into the learner's days as it records them, so these count
 * only once it recounts the days from the log: after a change of the learner's day start or timezone.
 */
export const writePastReviews = (stack: TestStack, userId: string, reviews: PastReview[]): Promise<void> =>
  withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ id: string; card_id: string }>(
      'select id, card_id from cards.review_items where owner_id = $1 limit 1',
      [userId],
    );
    const item = rows[0];
    if (!item) throw new Error(`user ${userId} has no cards to have reviewed`);
    for (const { at, rating, stateBefore } of reviews) {
      await client.query(
        `insert into cards.review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after,
           reviewed_at, duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after,
           previous, after)
         values (gen_random_uuid(), $1, $2, $3, $4, $5, 2, $6, 1000, 1, 1, 1, 0, $6, '{}', '{}')`,
        [userId, item.id, item.card_id, rating, stateBefore, at],
      );
    }
  });

/** One review of a learner's history, as the optimizer reads it (services/cards/src/optimizer/history.ts). */
export interface HistoryReview {
  itemId: string;
  rating: number;
  stateBefore: number;
  reviewedAt: Date;
}

/**
 * Writes a learner's history of reviews into their review log at once, each item of it a card they have since
 * deleted (its reviews are kept and learned from).
 */
export const writeHistory = (stack: TestStack, userId: string, reviews: HistoryReview[]): Promise<void> =>
  withDatabase(stack, async (client) => {
    const items = new Map<string, string>();
    for (const { itemId } of reviews) if (!items.has(itemId)) items.set(itemId, randomUUID());
    await client.query(
      `insert into cards.review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after,
         reviewed_at, duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after,
         previous, after)
       select gen_random_uuid(), $1, item, item, rating, state_before, 2, reviewed_at, 6000, 0, 0, 1, 0,
         reviewed_at, '{}', '{}'
       from unnest($2::uuid[], $3::smallint[], $4::smallint[], $5::timestamptz[])
         as r(item, rating, state_before, reviewed_at)`,
      [
        userId,
        reviews.map(({ itemId }) => items.get(itemId)),
        reviews.map(({ rating }) => rating),
        reviews.map(({ stateBefore }) => stateBefore),
        reviews.map(({ reviewedAt }) => reviewedAt),
      ],
    );
  });

/**
 * Makes every card of `userId` as if made `hours` earlier, and due since then: a device whose clock is behind may
 * then practise them (a review is never dated before its card).
 */
export const cardsMadeEarlier = (stack: TestStack, userId: string, hours: number): Promise<void> =>
  withDatabase(stack, async (client) => {
    await client.query(`update cards.review_items set due = due - make_interval(hours => $2) where owner_id = $1`, [
      userId,
      hours,
    ]);
    await client.query(
      `update cards.cards set created_at = created_at - make_interval(hours => $2) where owner_id = $1`,
      [userId, hours],
    );
  });

/** The reviews of `userId` the server has, oldest first: id, time and the learner's day it counted on. */
export const reviewLogsOf = (stack: TestStack, userId: string) =>
  withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ id: string; reviewed_at: Date }>(
      'select id, reviewed_at from cards.review_logs where owner_id = $1 and undone_at is null order by reviewed_at',
      [userId],
    );
    return rows;
  });

/**
 * Makes `userId`'s items (in the order their cards were made) review cards last seen three days ago and due
 * `days[n]` days from now.
 */
export const reviewItemsDueIn = (stack: TestStack, userId: string, days: number[]): Promise<void> =>
  withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `select i.id from cards.review_items i join cards.cards c on c.id = i.card_id
       where i.owner_id = $1 order by c.created_at, c.id`,
      [userId],
    );
    for (const [n, row] of rows.entries())
      await client.query(
        `update cards.review_items set state = 2, stability = 10, difficulty = 5, reps = 3, scheduled_days = 3,
           last_review = now() - interval '3 days', due = now() + make_interval(days => $2) where id = $1`,
        [row.id, days[n] ?? 0],
      );
  });

/** The review items of `userId`'s cards: their id, ordinal and how often each was reviewed, by card and ordinal. */
export const reviewItemsOf = (stack: TestStack, userId: string) =>
  withDatabase(stack, async (client) => {
    const { rows } = await client.query<{ id: string; card_id: string; ordinal: number; reps: number }>(
      'select id, card_id, ordinal, reps from cards.review_items where owner_id = $1 order by card_id, ordinal',
      [userId],
    );
    return rows;
  });
