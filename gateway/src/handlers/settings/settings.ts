// settings.get, settings.getTimezone, settings.update and settings.completeOnboarding. Completing
// onboarding saves the learner's first settings in cards, then marks the user onboarded in identity
// (both calls are safe to repeat, so a retry after a failure in between ends in the same place).
import { completeOnboardingInput, type SettingsUpdateInput, settingsUpdateInput } from '@engram/contracts/learning';
import { Settings } from '@engram/proto/cards/v1/settings';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';

export { completeOnboardingInput, settingsUpdateInput };

const FIELD_NAMES: Record<keyof SettingsUpdateInput, string> = {
  timezone: 'timezone',
  dayStartHour: 'day_start_hour',
  desiredRetention: 'desired_retention',
  maximumIntervalDays: 'maximum_interval_days',
  learningSteps: 'learning_steps',
  relearningSteps: 'relearning_steps',
  fuzz: 'fuzz',
  dailyGoal: 'daily_goal',
};

async function update(ctx: ProtectedContext, changes: SettingsUpdateInput) {
  const fields = (Object.keys(changes) as (keyof SettingsUpdateInput)[])
    .filter((key) => changes[key] !== undefined)
    .map((key) => FIELD_NAMES[key]);
  // The service reads only the fields named; the others are protobuf's defaults and ignored.
  return asUser(ctx).settings.updateSettings({
    fields,
    settings: Settings.fromPartial(changes),
  });
}

export async function getSettings({ ctx }: { ctx: ProtectedContext }) {
  return asUser(ctx).settings.getSettings({});
}

export async function getTimezone({ ctx }: { ctx: ProtectedContext }): Promise<{ timezone: string }> {
  return { timezone: (await getSettings({ ctx })).timezone };
}

export async function updateSettings({ ctx, input }: { ctx: ProtectedContext; input: SettingsUpdateInput }) {
  return update(ctx, input);
}

export async function completeOnboarding({
  ctx,
  input,
}: {
  ctx: ProtectedContext;
  input: z.infer<typeof completeOnboardingInput>;
}): Promise<{ onboardedAt: string }> {
  await update(ctx, input);
  const { onboardedAt } = await asUser(ctx).identity.completeOnboarding({});
  return { onboardedAt: (onboardedAt ?? new Date()).toISOString() };
}
