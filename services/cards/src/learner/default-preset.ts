// A learner's default preset: the one every card without a preset of its tags belongs to (card-preset.ts), made with
// the learner's first saved settings, their first optimization or their first review that needs it.
import { DEFAULT_SETTINGS, PRESET_DEFAULTS } from '@engram/contracts/learning';
import type pg from 'pg';

/**
 * The one statement that makes a learner's default preset (FSRS-6's defaults, the default daily limits):
 * `owner` and `retention` are the SQL of its owner and desired retention, `counted` of the reviews counted
 * toward its next automatic optimization; `conflict` says what happens when the learner has one already.
 */
export const insertDefaultPreset = (
  values: { owner: string; retention: string; counted?: string },
  conflict: string,
) => `
INSERT INTO presets (id, owner_id, name, is_default, desired_retention, new_per_day, reviews_per_day,
  reviews_since_optimized)
VALUES (gen_random_uuid(), ${values.owner}, '${PRESET_DEFAULTS.name}', true, ${values.retention},
  ${PRESET_DEFAULTS.newPerDay}, ${PRESET_DEFAULTS.reviewsPerDay}, ${values.counted ?? '0'})
ON CONFLICT (owner_id, is_default) WHERE is_default ${conflict}`;

// DO UPDATE (of nothing that changes) so that RETURNING gives the row whether it was made now or before.
const ENSURE_DEFAULT = `${insertDefaultPreset({ owner: '$1', retention: '$2' }, 'DO UPDATE SET is_default = true')}
RETURNING id::text`;

/** The id of the learner's default preset, made now if they have none. */
export async function defaultPresetId(pool: pg.Pool | pg.PoolClient, ownerId: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(ENSURE_DEFAULT, [ownerId, DEFAULT_SETTINGS.desiredRetention]);
  return (rows[0] as { id: string }).id;
}
