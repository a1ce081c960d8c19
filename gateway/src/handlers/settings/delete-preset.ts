// settings.deletePreset: deletes one of the learner's presets; its tags' cards go back to the default preset.
import { deletePresetInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { deletePresetInput };

export async function deletePreset({ ctx, input }: HandlerArgs<z.infer<typeof deletePresetInput>>) {
  await asUser(ctx).settings.deletePreset(input);
  return { deleted: true };
}
