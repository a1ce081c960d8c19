// settings.optimize: fits one of the learner's presets (the default one when none is named) to their reviews, as
// a background job (settings.optimization follows it).
import { optimizeInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { optimizeInput };

export async function optimize({ ctx, input }: HandlerArgs<z.infer<typeof optimizeInput>>): Promise<{ jobId: string }> {
  return asUser(ctx).settings.optimize({
    presetId: input.presetId ?? '',
    excludeDeletedCards: input.excludeDeletedCards ?? false,
  });
}
