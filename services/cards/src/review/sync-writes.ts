// What a sync's batch of reviews writes, a statement per table for the whole batch (rows passed as arrays and
// unnested), not one per review: the new logs, the logs scheduled again (late-review.ts), each item's new state, the
// learner's days, the events and the leech tags. The logs of an item from its first review synced on are numbered
// (seq) in the order of their times, so an undo takes back the one that happened last.
//
// The days count a new log into its study day, read under the learner's settings lock (learner_review_day, as a
// review counts); a log scheduled again moves between mature and not on its day when its state before changed. Its
// day and rating never change, so nothing is counted again from the logs.
import { gradeOf } from '@engram/contracts/scheduler';
import { enqueueEventRows } from '@engram/kit/events/outbox';
import type pg from 'pg';
import { reviewRecordedRow, reviewRestatedRow } from '../events/review-events.js';
import { reviewDayOf } from '../learner/study-days.js';
import { snapshot, stateNumber } from './item-row.js';
import { restates, type ScheduledLog } from './late-review.js';
import { makesLeech, TAG_LEECHES } from './leech.js';
import { nextSeqs, type SyncedItem } from './sync-read.js';

/** One item's outcome: its reviews from the first one synced on, in the order of their times. */
export interface PlannedItem {
  row: SyncedItem;
  timeline: ScheduledLog[];
}

const LOG_VALUES = `$4::smallint[], $5::smallint[], $6::int[], $7::int[], $8::int[], $9::smallint[],
  $10::timestamptz[], $11::jsonb[], $12::jsonb[]`;
const LOG_COLUMNS = `state_before, state_after, elapsed_days, last_elapsed_days, scheduled_days, learning_step,
  due_after, previous, after`;

// $1 owner, $2 ids, $3 seqs, $4–$12 the scheduled columns, $13 items, $14 cards, $15 ratings, $16 times, $17 durations.
const INSERT_LOGS = `
INSERT INTO review_logs (id, seq, owner_id, item_id, card_id, rating, reviewed_at, duration_ms, ${LOG_COLUMNS})
SELECT id, seq, $1, item_id, card_id, rating, reviewed_at, duration_ms, ${LOG_COLUMNS}
FROM unnest($2::uuid[], $3::bigint[], ${LOG_VALUES}, $13::uuid[], $14::uuid[], $15::smallint[], $16::timestamptz[],
  $17::int[])
  AS l(id, seq, ${LOG_COLUMNS}, item_id, card_id, rating, reviewed_at, duration_ms)`;

// $1 owner, $2 ids, $3 seqs, $4–$12 the scheduled columns.
const RESCHEDULE_LOGS = `
UPDATE review_logs l SET seq = u.seq, state_before = u.state_before, state_after = u.state_after,
  elapsed_days = u.elapsed_days, last_elapsed_days = u.last_elapsed_days, scheduled_days = u.scheduled_days,
  learning_step = u.learning_step, due_after = u.due_after, previous = u.previous, after = u.after
FROM unnest($2::uuid[], $3::bigint[], ${LOG_VALUES}) AS u(id, seq, ${LOG_COLUMNS})
WHERE l.id = u.id AND l.owner_id = $1`;

const UPDATE_ITEMS = `
UPDATE review_items i SET state = u.state, due = u.due, stability = u.stability, difficulty = u.difficulty,
  elapsed_days = u.elapsed_days, scheduled_days = u.scheduled_days, learning_step = u.learning_step, reps = u.reps,
  lapses = u.lapses, last_review = u.last_review
FROM unnest($1::uuid[], $2::smallint[], $3::timestamptz[], $4::float8[], $5::float8[], $6::int[], $7::int[],
  $8::smallint[], $9::int[], $10::int[], $11::timestamptz[])
  AS u(id, state, due, stability, difficulty, elapsed_days, scheduled_days, learning_step, reps, lapses, last_review)
WHERE i.id = u.id`;

// $1 owner; per row $2 its time, $3 reviews, $4 rating (0: none), $5 mature and $6 mature recalled (±1 or 0).
const COUNT_DAYS = `
INSERT INTO review_days (owner_id, day, reviews, again, hard, good, easy, mature, mature_recalled)
SELECT $1, day, sum(reviews), count(*) FILTER (WHERE rating = 1), count(*) FILTER (WHERE rating = 2),
  count(*) FILTER (WHERE rating = 3), count(*) FILTER (WHERE rating = 4), sum(mature), sum(recalled)
FROM (
  SELECT ${reviewDayOf('$1', 'c.at')} AS day, c.reviews, c.rating, c.mature, c.recalled
  FROM unnest($2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::int[]) AS c(at, reviews, rating, mature, recalled)
) counted
GROUP BY day
ON CONFLICT (owner_id, day) DO UPDATE SET reviews = review_days.reviews + EXCLUDED.reviews,
  again = review_days.again + EXCLUDED.again, hard = review_days.hard + EXCLUDED.hard,
  good = review_days.good + EXCLUDED.good, easy = review_days.easy + EXCLUDED.easy,
  mature = review_days.mature + EXCLUDED.mature,
  mature_recalled = review_days.mature_recalled + EXCLUDED.mature_recalled`;

const REVIEW = 2;

/** The scheduled columns ($4–$12) of `logs`. */
function scheduledColumns(logs: ScheduledLog[]) {
  return [
    logs.map(({ before }) => stateNumber(before.state)),
    logs.map(({ next }) => stateNumber(next.state)),
    logs.map(({ outcome }) => outcome.log.elapsedDays),
    logs.map(({ outcome }) => outcome.log.lastElapsedDays),
    logs.map(({ outcome }) => outcome.log.scheduledDays),
    logs.map(({ outcome }) => outcome.log.learningStep),
    logs.map(({ next }) => next.due.toISOString()),
    logs.map(({ before }) => JSON.stringify(snapshot(before))),
    logs.map(({ next }) => JSON.stringify(snapshot(next))),
  ];
}

/** What each log adds to its day: a new one counts whole, one scheduled again only a change of maturity. */
function dayCounts(logs: ScheduledLog[]) {
  const rows = logs.flatMap((log) => {
    const mature = stateNumber(log.before.state) === REVIEW ? 1 : 0;
    if (log.review) {
      const rating = gradeOf(log.review.rating);
      return [{ at: log.review.at, reviews: 1, rating, mature, recalled: mature && rating > 1 ? 1 : 0 }];
    }
    const stored = log.stored!;
    const change = mature - (stored.state_before === REVIEW ? 1 : 0);
    if (change === 0) return [];
    return [
      { at: stored.reviewed_at, reviews: 0, rating: 0, mature: change, recalled: stored.rating > 1 ? change : 0 },
    ];
  });
  return [
    rows.map((row) => row.at.toISOString()),
    rows.map((row) => row.reviews),
    rows.map((row) => row.rating),
    rows.map((row) => row.mature),
    rows.map((row) => row.recalled),
  ];
}

/** Every event of the batch: each synced review recorded, each logged one whose states changed restated. */
function events(ownerId: string, planned: PlannedItem[]) {
  return planned.flatMap(({ row, timeline }) => {
    const deckId = row.deck_id ?? '';
    return timeline.flatMap((log) => {
      if (log.review) {
        const { review, before, next } = log;
        return [
          reviewRecordedRow({
            reviewId: review.reviewId,
            ownerId,
            cardId: row.card_id,
            itemId: row.id,
            rating: review.rating,
            stateBefore: before.state,
            stateAfter: next.state,
            reviewedAt: review.at,
            durationMs: review.durationMs,
            due: next.due,
            lapses: next.lapses,
            deckId,
          }),
        ];
      }
      if (!restates(log)) return [];
      const { before, next } = log;
      return [
        reviewRestatedRow({
          reviewId: log.stored!.id,
          ownerId,
          itemId: row.id,
          deckId,
          stateBefore: before.state,
          stateAfter: next.state,
        }),
      ];
    });
  });
}

/** Writes the outcome of `planned` (the owner's items, locked) within the transaction `client` runs. */
export async function writeSynced(client: pg.PoolClient, ownerId: string, planned: PlannedItem[]): Promise<void> {
  const all = planned.flatMap(({ timeline }) => timeline);
  const seqs = await nextSeqs(client, all.length);
  const seqOf = new Map(all.map((log, n) => [log, seqs[n]!]));
  const recorded = planned.flatMap(({ row, timeline }) =>
    timeline.filter((log) => log.review).map((log) => ({ row, log })),
  );
  const logs = recorded.map(({ log }) => log);
  await client.query(INSERT_LOGS, [
    ownerId,
    logs.map((log) => log.review!.reviewId),
    logs.map((log) => seqOf.get(log)),
    ...scheduledColumns(logs),
    recorded.map(({ row }) => row.id),
    recorded.map(({ row }) => row.card_id),
    logs.map((log) => gradeOf(log.review!.rating)),
    logs.map((log) => log.review!.at.toISOString()),
    logs.map((log) => log.review!.durationMs),
  ]);
  const again = all.filter((log) => log.stored);
  if (again.length > 0) {
    await client.query(RESCHEDULE_LOGS, [
      ownerId,
      again.map((log) => log.stored!.id),
      again.map((log) => seqOf.get(log)),
      ...scheduledColumns(again),
    ]);
  }
  const states = planned.map(({ timeline }) => timeline.at(-1)!.next);
  await client.query(UPDATE_ITEMS, [
    planned.map(({ row }) => row.id),
    states.map((memory) => stateNumber(memory.state)),
    states.map((memory) => memory.due.toISOString()),
    states.map((memory) => memory.stability),
    states.map((memory) => memory.difficulty),
    states.map((memory) => memory.elapsedDays),
    states.map((memory) => memory.scheduledDays),
    states.map((memory) => memory.learningStep),
    states.map((memory) => memory.reps),
    states.map((memory) => memory.lapses),
    states.map((memory) => memory.lastReview?.toISOString() ?? null),
  ]);
  await client.query(COUNT_DAYS, [ownerId, ...dayCounts(all)]);
  await enqueueEventRows(client, events(ownerId, planned));
  const leeches = planned.filter(({ row, timeline }) =>
    makesLeech(row.lapses, Math.max(...timeline.map(({ next }) => next.lapses))),
  );
  if (leeches.length > 0) await client.query(TAG_LEECHES, [ownerId, leeches.map(({ row }) => row.card_id)]);
}
