// settings.createPreset: a new preset of the learner's, with the tags it schedules.
import { type CreatePresetInput, createPresetInput } from '@engram/contracts/scheduling';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type PresetJson, presetJson } from './json.js';
import { presetRequest } from './preset-request.js';

export { createPresetInput };

export async function createPreset({ ctx, input }: HandlerArgs<CreatePresetInput>): Promise<PresetJson> {
  return presetJson(await asUser(ctx).settings.createPreset(presetRequest(undefined, input)));
}
