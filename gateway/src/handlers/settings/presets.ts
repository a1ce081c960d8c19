// settings.createPreset, updatePreset and deletePreset: the learner's presets and the tags each schedules;
// settings.previewReschedule and reschedule: a preset's cards given the due dates its options give them now,
// previewed first (how many change, and how many fall due on each of the next days, before and after).

import {
  type CreatePresetInput,
  createPresetInput,
  deletePresetInput,
  type presetFields,
  rescheduleInput,
  type UpdatePresetInput,
  updatePresetInput,
} from '@engram/contracts/scheduling';
import { Preset } from '@engram/proto/cards/v1/settings';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type PresetJson, presetJson } from './json.js';
import { FORECAST_CALL } from './simulate.js';

export { createPresetInput, deletePresetInput, rescheduleInput, updatePresetInput };

const FIELD_NAMES: Record<keyof typeof presetFields, string> = {
  name: 'name',
  tagIds: 'tag_ids',
  desiredRetention: 'desired_retention',
  newPerDay: 'new_per_day',
  reviewsPerDay: 'reviews_per_day',
};

/** The request for the options given: the service reads only the fields it names. */
function presetRequest(presetId: string | undefined, options: Partial<Record<keyof typeof presetFields, unknown>>) {
  const given = (Object.keys(FIELD_NAMES) as (keyof typeof presetFields)[]).filter((key) => options[key] !== undefined);
  return {
    presetId: presetId ?? '',
    fields: given.map((key) => FIELD_NAMES[key]),
    preset: Preset.fromPartial(options as Partial<Preset>),
  };
}

export async function createPreset({ ctx, input }: HandlerArgs<CreatePresetInput>): Promise<PresetJson> {
  return presetJson(await asUser(ctx).settings.createPreset(presetRequest(undefined, input)));
}

export async function updatePreset({ ctx, input }: HandlerArgs<UpdatePresetInput>): Promise<PresetJson> {
  const { presetId, ...options } = input;
  return presetJson(await asUser(ctx).settings.updatePreset(presetRequest(presetId, options)));
}

export async function deletePreset({ ctx, input }: HandlerArgs<z.infer<typeof deletePresetInput>>) {
  await asUser(ctx).settings.deletePreset(input);
  return { deleted: true };
}

export interface ReschedulePreviewJson {
  /** The preset's reviewed cards, and those whose due date would change. */
  cards: number;
  changed: number;
  /** The learner's next 30 days (the first also holding overdue cards), then one for every later day. */
  days: { date: string; before: number; after: number }[];
}

export async function previewReschedule({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof rescheduleInput>>): Promise<ReschedulePreviewJson> {
  const { cards, changed, days } = await asUser(ctx).settings.previewReschedule(
    { presetId: input.presetId ?? '' },
    FORECAST_CALL,
  );
  return { cards, changed, days: days.map(({ date, before, after }) => ({ date, before, after })) };
}

export async function reschedule({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof rescheduleInput>>): Promise<{ changed: number }> {
  return asUser(ctx).settings.reschedule({ presetId: input.presetId ?? '' }, FORECAST_CALL);
}
