// settings.updatePreset: changes the options given of one of the learner's presets, the tags it schedules among them.
import { type UpdatePresetInput, updatePresetInput } from '@engram/contracts/scheduling';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type PresetJson, presetJson } from './json.js';
import { presetRequest } from './preset-request.js';

export { updatePresetInput };

export async function updatePreset({ ctx, input }: HandlerArgs<UpdatePresetInput>): Promise<PresetJson> {
  const { presetId, ...options } = input;
  return presetJson(await asUser(ctx).settings.updatePreset(presetRequest(presetId, options)));
}
