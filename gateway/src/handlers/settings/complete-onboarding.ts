// settings.completeOnboarding: saves the learner's first settings in cards, then marks the user onboarded
// in identity (both calls are safe to repeat, so a retry after a failure in between ends in the same place).
import { completeOnboardingInput } from '@engram/contracts/learning';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { saveSettings } from './settings-changes.js';

export { completeOnboardingInput };

export async function completeOnboarding({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof completeOnboardingInput>>): Promise<{ onboardedAt: string }> {
  await saveSettings(ctx, input);
  const { onboardedAt } = await asUser(ctx).identity.completeOnboarding({});
  return { onboardedAt: (onboardedAt ?? new Date()).toISOString() };
}
