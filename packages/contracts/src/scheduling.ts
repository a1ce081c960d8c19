// Personal scheduling's shared shapes and limits (issue 28): fitting a preset's parameters, simulating its
// workload, its recommended retention, the presets themselves and rescheduling. Apart from learning.ts, so the
// pages that load learning's schemas (the app's first load among them) do not carry these too.
import { settingsFields, uuid } from './learning.ts';
import { z } from './zod.ts';

/** A preset named by an optimization, simulation or recommendation; none: the learner's default preset. */
const presetId = z.uuid('The preset is not valid.').optional();

/** settings.optimize: a preset, and whether the reviews of deleted cards are left out. */
export const optimizeInput = z.object({ presetId, excludeDeletedCards: z.boolean().optional() }).default({});

export const getOptimizationInput = z.object({ jobId: z.uuid('The optimization is not valid.') });

/** The most days ahead, and the most desired retentions side by side, one simulation covers. */
export const MAX_SIMULATED_DAYS = 365;
export const MAX_SIMULATED_RETENTIONS = 5;

/** settings.simulate: a preset, the desired retentions side by side, the days ahead. */
export const simulateInput = z.object({
  presetId,
  desiredRetentions: z
    .array(settingsFields.desiredRetention)
    .min(1, 'Give at least one desired retention to simulate.')
    .max(MAX_SIMULATED_RETENTIONS, `At most ${MAX_SIMULATED_RETENTIONS} desired retentions at once.`),
  days: z
    .number()
    .int(`Simulate from 1 to ${MAX_SIMULATED_DAYS} days.`)
    .min(1, `Simulate from 1 to ${MAX_SIMULATED_DAYS} days.`)
    .max(MAX_SIMULATED_DAYS, `Simulate from 1 to ${MAX_SIMULATED_DAYS} days.`),
});

export const recommendRetentionInput = z.object({ presetId }).default({});

/**
 * The desired retentions a recommendation chooses among. 0.80 is the lowest it suggests, a choice of ours: lower
 * targets save minutes mainly by letting more be forgotten.
 */
export const RECOMMENDABLE_RETENTIONS = [0.8, 0.82, 0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.95] as const;

/**
 * The fewest cards a preset needs for a recommended retention, a choice of ours: a smaller collection is learnt
 * within weeks at any retention, so its simulated year says little but that the highest aim costs a few seconds
 * more (a newcomer with 20 cards was told 95%). With fewer, none is recommended, and the screen says why.
 */
export const RECOMMENDATION_MIN_CARDS = 100;

export const PRESET_NAME_MAX_LENGTH = 40;
/** The most presets one learner keeps (their default preset among them). */
export const MAX_PRESETS = 20;
/** The most tags one preset schedules. */
export const MAX_TAGS_PER_PRESET = 100;
/** The largest daily limit of new cards or of reviews. */
export const DAILY_LIMIT_MAX = 9999;

/** Why a preset call was refused (the domain reason the web app words in the user's language). */
export const PRESET_REASONS = {
  tooMany: 'TOO_MANY_PRESETS',
  notFound: 'PRESET_NOT_FOUND',
  defaultHasNoTags: 'DEFAULT_PRESET_TAGS',
  defaultKept: 'DEFAULT_PRESET_KEPT',
} as const;

const dailyLimit = (what: string) => {
  const message = `${what} per day must be a whole number from 0 to ${DAILY_LIMIT_MAX}.`;
  return z.number(message).int(message).min(0, message).max(DAILY_LIMIT_MAX, message);
};

/** A preset's options: its name, the tags whose cards it schedules, its desired retention and daily limits. */
export const presetFields = {
  name: z
    .string()
    .trim()
    .min(1, 'Preset name is required.')
    .max(PRESET_NAME_MAX_LENGTH, `Preset name must be at most ${PRESET_NAME_MAX_LENGTH} characters.`),
  tagIds: z
    .array(uuid('Tag id'))
    .max(MAX_TAGS_PER_PRESET, `A preset takes at most ${MAX_TAGS_PER_PRESET} tags.`)
    .refine((ids) => new Set(ids).size === ids.length, 'A tag is named twice.'),
  desiredRetention: settingsFields.desiredRetention,
  newPerDay: dailyLimit('New cards'),
  reviewsPerDay: dailyLimit('Reviews'),
};

/** settings.createPreset: a name and the tags it takes; what else is not given starts as the default preset's. */
export const createPresetInput = z.object({
  name: presetFields.name,
  tagIds: presetFields.tagIds.default([]),
  desiredRetention: presetFields.desiredRetention.optional(),
  newPerDay: presetFields.newPerDay.optional(),
  reviewsPerDay: presetFields.reviewsPerDay.optional(),
});
export type CreatePresetInput = z.infer<typeof createPresetInput>;

/** settings.updatePreset: the options to change of one preset (none named: the default preset). */
export const updatePresetInput = z
  .object({ presetId, ...presetFields })
  .partial()
  .refine(
    ({ presetId: _presetId, ...changes }) => Object.values(changes).some((value) => value !== undefined),
    'Give at least one option of the preset to change.',
  );
export type UpdatePresetInput = z.infer<typeof updatePresetInput>;

export const deletePresetInput = z.object({ presetId: z.uuid('The preset is not valid.') });

/** settings.reschedule and its preview: the cards of one preset (none named: the default preset). */
export const rescheduleInput = z.object({ presetId }).default({});
