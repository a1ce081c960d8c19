// A learner's presets as the API shows them, and their default preset made when first needed (with the
// desired retention of their settings, or the default one).
import { DEFAULT_SETTINGS, PRESET_DEFAULTS } from '@engram/contracts/learning';
import type { Evaluation as EvaluationMessage, Preset as PresetMessage } from '@engram/proto/cards/v1/settings';
import type pg from 'pg';
import type { Db } from '../db.js';
import { DEFAULT_PARAMETERS } from '../domain/scheduler.js';
import type { Evaluation } from '../optimizer/optimize.js';

/** An evaluation as presets and optimizations keep it (JSON), with when it was measured. */
export type StoredEvaluation = Evaluation & { measuredAt: string };

export function evaluationMessage(stored: unknown): EvaluationMessage | undefined {
  if (!stored || typeof stored !== 'object') return undefined;
  const evaluation = stored as StoredEvaluation;
  return {
    reviews: evaluation.reviews,
    trainedOn: evaluation.trainedOn,
    logLossBefore: evaluation.logLossBefore,
    logLossAfter: evaluation.logLossAfter,
    rmseBefore: evaluation.rmseBefore,
    rmseAfter: evaluation.rmseAfter,
    measuredAt: new Date(evaluation.measuredAt),
  };
}

/** The default preset of a learner who has not got one yet (it is made when first needed), as the API shows it. */
const unsavedDefault = (): PresetMessage => ({
  id: '',
  name: PRESET_DEFAULTS.name,
  isDefault: true,
  tagIds: [],
  desiredRetention: DEFAULT_SETTINGS.desiredRetention,
  parameters: [...DEFAULT_PARAMETERS],
  optimizedAt: undefined,
  evaluation: undefined,
  newPerDay: PRESET_DEFAULTS.newPerDay,
  reviewsPerDay: PRESET_DEFAULTS.reviewsPerDay,
});

/** The learner's presets, the default first (with no id while it has not been made). */
export async function presetMessages(db: Db, ownerId: string): Promise<PresetMessage[]> {
  const rows = await db.preset.findMany({
    where: { ownerId },
    include: { tags: { select: { tagId: true } } },
    orderBy: [{ isDefault: 'desc' }, { createdAt: 'asc' }],
  });
  const presets = rows.map((row) => ({
    id: row.id,
    name: row.name,
    isDefault: row.isDefault,
    tagIds: row.tags.map(({ tagId }) => tagId),
    desiredRetention: row.desiredRetention,
    parameters: row.parameters.length > 0 ? row.parameters : [...DEFAULT_PARAMETERS],
    optimizedAt: row.optimizedAt ?? undefined,
    evaluation: evaluationMessage(row.evaluation),
    newPerDay: row.newPerDay,
    reviewsPerDay: row.reviewsPerDay,
  }));
  return presets[0]?.isDefault ? presets : [unsavedDefault(), ...presets];
}

const ENSURE_DEFAULT = `
WITH made AS (
  INSERT INTO presets (id, owner_id, name, is_default, desired_retention, new_per_day, reviews_per_day)
  VALUES (gen_random_uuid(), $1, $2, true, $3, $4, $5)
  ON CONFLICT (owner_id, is_default) WHERE is_default DO NOTHING
  RETURNING id
)
SELECT id::text FROM made
UNION ALL
SELECT id::text FROM presets WHERE owner_id = $1 AND is_default`;

/** The id of the learner's default preset, made now if they have none. */
export async function defaultPresetId(pool: pg.Pool | pg.PoolClient, ownerId: string): Promise<string> {
  const values = [
    ownerId,
    PRESET_DEFAULTS.name,
    DEFAULT_SETTINGS.desiredRetention,
    PRESET_DEFAULTS.newPerDay,
    PRESET_DEFAULTS.reviewsPerDay,
  ];
  // A concurrent call may make it between this statement's snapshot and its insert: then neither half sees a
  // row, and the second try does.
  for (;;) {
    const { rows } = await pool.query<{ id: string }>(ENSURE_DEFAULT, values);
    if (rows[0]) return rows[0].id;
  }
}
