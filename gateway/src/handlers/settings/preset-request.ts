// What settings.createPreset and updatePreset send cards: the preset's options given, and the names of the fields
// they fill (the service changes only the fields named).
import type { presetFields } from '@engram/contracts/scheduling';
import { Preset } from '@engram/proto/cards/v1/settings';

const FIELD_NAMES: Record<keyof typeof presetFields, string> = {
  name: 'name',
  tagIds: 'tag_ids',
  desiredRetention: 'desired_retention',
  newPerDay: 'new_per_day',
  reviewsPerDay: 'reviews_per_day',
};

/** The request for the options given: the service reads only the fields it names. */
export function presetRequest(
  presetId: string | undefined,
  options: Partial<Record<keyof typeof presetFields, unknown>>,
) {
  const given = (Object.keys(FIELD_NAMES) as (keyof typeof presetFields)[]).filter((key) => options[key] !== undefined);
  return {
    presetId: presetId ?? '',
    fields: given.map((key) => FIELD_NAMES[key]),
    preset: Preset.fromPartial(options as Partial<Preset>),
  };
}
