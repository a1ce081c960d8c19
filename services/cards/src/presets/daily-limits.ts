// The daily limits of a learner's presets: each preset's new cards and reviews a day, less what the learner did
// of each today (new cards started, reviews of cards in the review state), counted toward the preset that
// schedules each card (card-preset.ts). What a limit leaves out waits, in due order, for the days after.
import { DEFAULT_SETTINGS, PRESET_DEFAULTS } from '@engram/contracts/learning';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import type pg from 'pg';
import type { Stores } from '../db.js';
import { cardPresetId } from '../learner/card-preset.js';

/** Stands for a default preset not made yet (no card can name it, as no preset has tags then). */
const UNMADE_DEFAULT = '00000000-0000-0000-0000-000000000000';

export interface PresetOptions {
  desiredRetention: number;
  parameters: readonly number[];
}

export interface DailyLimits {
  /** Whether any preset has tags: if none, the default preset schedules every card. */
  byTag: boolean;
  defaultId: string;
  /** Each preset's scheduling options, by id. */
  options: Map<string, PresetOptions>;
  /** The statement values of PRESET_LIMITS: preset ids, new cards left today, reviews left today, byTag. */
  values: [string[], number[], number[], boolean];
  /** Each of those presets' new cards a day (in the order of `values`' ids). */
  newPerDay: number[];
  /** What was done today per preset (null: none made yet), as doneSince answers it. */
  done: Awaited<ReturnType<typeof doneSince>>;
}

const DONE_TODAY = `
SELECT ${cardPresetId('l.card_id', '$1')}::text AS preset_id,
  count(*) FILTER (WHERE l.state_before = 0)::int AS new_done,
  count(*) FILTER (WHERE l.state_before = 2)::int AS reviews_done
FROM review_logs l
WHERE l.owner_id = $1 AND l.reviewed_at >= $2 AND l.undone_at IS NULL
GROUP BY 1`;

/** What the learner did of each preset's limits since `dayStart`: per preset (null: none made yet), new cards started and reviews. */
export async function doneSince(pool: pg.Pool, ownerId: string, dayStart: Date) {
  const { rows } = await pool.query<{ preset_id: string | null; new_done: number; reviews_done: number }>(DONE_TODAY, [
    ownerId,
    dayStart,
  ]);
  return rows;
}

/** The limits left to the learner `ownerId` on the day that began at `dayStart`. */
export async function dailyLimits({ db, pool }: Stores, ownerId: string, dayStart: Date): Promise<DailyLimits> {
  const [presets, done] = await Promise.all([
    db.preset.findMany({ where: { ownerId }, include: { _count: { select: { tags: true } } } }),
    doneSince(pool, ownerId, dayStart),
  ]);
  const rows = presets.some(({ isDefault }) => isDefault)
    ? presets
    : [
        ...presets,
        {
          id: UNMADE_DEFAULT,
          isDefault: true,
          desiredRetention: DEFAULT_SETTINGS.desiredRetention,
          parameters: [],
          newPerDay: PRESET_DEFAULTS.newPerDay,
          reviewsPerDay: PRESET_DEFAULTS.reviewsPerDay,
          _count: { tags: 0 },
        },
      ];
  const defaultId = rows.find(({ isDefault }) => isDefault)?.id ?? UNMADE_DEFAULT;
  const doneOf = (id: string) =>
    done.find(({ preset_id }) => (preset_id ?? UNMADE_DEFAULT) === id) ?? { new_done: 0, reviews_done: 0 };
  const byTag = presets.some(({ _count }) => _count.tags > 0);
  const limited = byTag ? rows : rows.filter(({ id }) => id === defaultId);
  return {
    byTag,
    defaultId,
    options: new Map(
      rows.map((row) => [
        row.id,
        {
          desiredRetention: row.desiredRetention,
          parameters: row.parameters.length > 0 ? row.parameters : DEFAULT_PARAMETERS,
        },
      ]),
    ),
    values: [
      limited.map(({ id }) => id),
      limited.map(({ id, newPerDay }) => Math.max(0, newPerDay - doneOf(id).new_done)),
      limited.map(({ id, reviewsPerDay }) => Math.max(0, reviewsPerDay - doneOf(id).reviews_done)),
      byTag,
    ],
    newPerDay: limited.map(({ newPerDay }) => newPerDay),
    done,
  };
}

/**
 * SQL for the limits a statement is given as `$n` to `$n+3` (DailyLimits.values): one row per preset, `l`, with
 * its id, new cards and reviews left.
 */
export const presetLimits = (n: number) =>
  `SELECT * FROM unnest($${n}::uuid[], $${n + 1}::int[], $${n + 2}::int[]) AS l(preset_id, new_left, reviews_left)`;

/** SQL: item `i` (its card) is scheduled by the limits row `l`; `byTag` is the parameter saying presets have tags. */
export const scheduledByLimit = (byTag: string) =>
  `(NOT ${byTag} OR ${cardPresetId('i.card_id', 'i.owner_id')} = l.preset_id)`;
