// A preset's options form: the draft (each field as typed), what settings.updatePreset takes of it, and its problem
// function, the contract's schema field by field, each message naming the schema's own bounds.
import { PRESET_NAME_MAX_LENGTH, presetFields, updatePresetInput } from '@engram/contracts/scheduling';
import type { inferOutput } from '@trpc/tanstack-react-query';
import { bounds, type FieldErrors, fieldErrors, parseNumber } from '../../lib/form';
import { m } from '../../lib/i18n';
import type { trpc } from '../../lib/trpc';
import { RETENTION } from './settings-draft';

export type Preset = inferOutput<typeof trpc.settings.get>['presets'][number];

export const NEW_PER_DAY = bounds(presetFields.newPerDay);
export const REVIEWS_PER_DAY = bounds(presetFields.reviewsPerDay);

const MESSAGES = {
  name: () => m.settings_preset_name_invalid({ max: PRESET_NAME_MAX_LENGTH }),
  tagIds: m.settings_preset_tags_hint,
  desiredRetention: () => m.settings_retention_invalid(RETENTION),
  newPerDay: () => m.settings_preset_limit_invalid(NEW_PER_DAY),
  reviewsPerDay: () => m.settings_preset_limit_invalid(REVIEWS_PER_DAY),
};

export interface PresetDraft {
  name: string;
  tagIds: string[];
  desiredRetention: string;
  newPerDay: string;
  reviewsPerDay: string;
}

export const toPresetDraft = (preset: Preset): PresetDraft => ({
  name: preset.name,
  tagIds: preset.tagIds,
  desiredRetention: String(preset.desiredRetention),
  newPerDay: String(preset.newPerDay),
  reviewsPerDay: String(preset.reviewsPerDay),
});

/** settings.updatePreset's input: every option (the default preset takes no tags). */
export const fromPresetDraft = (preset: Preset, draft: PresetDraft) => ({
  ...(preset.id && { presetId: preset.id }),
  name: draft.name.trim(),
  ...(!preset.isDefault && { tagIds: draft.tagIds }),
  desiredRetention: parseNumber(draft.desiredRetention),
  newPerDay: parseNumber(draft.newPerDay),
  reviewsPerDay: parseNumber(draft.reviewsPerDay),
});

export const presetProblems = (draft: PresetDraft): FieldErrors<keyof PresetDraft> =>
  fieldErrors(
    updatePresetInput,
    {
      name: draft.name.trim(),
      tagIds: draft.tagIds,
      desiredRetention: parseNumber(draft.desiredRetention),
      newPerDay: parseNumber(draft.newPerDay),
      reviewsPerDay: parseNumber(draft.reviewsPerDay),
    },
    MESSAGES,
  );

/** A preset's name as the picker shows it: the default one says so. */
export const presetLabel = (preset: Preset) =>
  preset.isDefault ? m.settings_preset_default_name({ name: preset.name }) : preset.name;
