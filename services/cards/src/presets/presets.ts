// A learner's presets as the API shows them (their default preset is made when first needed:
// learner/default-preset.ts).
import { DEFAULT_SETTINGS, PRESET_DEFAULTS } from '@engram/contracts/learning';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { PRESET_REASONS } from '@engram/contracts/scheduling';
import { NotFound } from '@engram/kit/errors';
import type { Evaluation as EvaluationMessage, Preset as PresetMessage } from '@engram/proto/cards/v1/settings';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Evaluation } from '../optimizer/optimize.js';

/** Another learner's preset, or none by that id. */
export const PRESET_NOT_FOUND = () => new NotFound('Preset not found.', PRESET_REASONS.notFound);

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

type PresetRow = Prisma.PresetGetPayload<{ include: { tags: { select: { tagId: true } } } }>;

/** The include that reads a preset row as presetMessage takes it. */
export const WITH_TAGS = { tags: { select: { tagId: true } } } as const;

/** A preset as the API shows it (its parameters FSRS-6's defaults until its own are adopted). */
export const presetMessage = (row: PresetRow): PresetMessage => ({
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
});

/** The learner's presets, the default first (with no id while it has not been made), then the oldest first. */
export async function presetMessages(db: Db, ownerId: string): Promise<PresetMessage[]> {
  const rows = await db.preset.findMany({
    where: { ownerId },
    include: WITH_TAGS,
    orderBy: [{ isDefault: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
  });
  const presets = rows.map(presetMessage);
  return presets[0]?.isDefault ? presets : [unsavedDefault(), ...presets];
}
