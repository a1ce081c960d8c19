// The settings procedures: the learner's scheduling settings and onboarding.
import {
  completeOnboarding,
  completeOnboardingInput,
  getSettings,
  getTimezone,
  settingsUpdateInput,
  updateSettings,
} from '../handlers/settings/settings.js';
import { protectedProcedure, router } from '../trpc.js';

export const settingsRouter = router({
  get: protectedProcedure.query(getSettings),
  getTimezone: protectedProcedure.query(getTimezone),
  update: protectedProcedure.input(settingsUpdateInput).mutation(updateSettings),
  completeOnboarding: protectedProcedure.input(completeOnboardingInput).mutation(completeOnboarding),
});
