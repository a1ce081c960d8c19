// The settings procedures: the learner's scheduling settings, onboarding, fitting a preset's parameters and simulating its workload.
import { completeOnboarding, completeOnboardingInput } from '../handlers/settings/complete-onboarding.js';
import { getSettings } from '../handlers/settings/get.js';
import { getTimezone } from '../handlers/settings/get-timezone.js';
import { getOptimization, getOptimizationInput, optimize, optimizeInput } from '../handlers/settings/optimize.js';
import { recommendRetention, recommendRetentionInput, simulate, simulateInput } from '../handlers/settings/simulate.js';
import { settingsUpdateInput, updateSettings } from '../handlers/settings/update.js';
import { protectedProcedure, router } from '../trpc.js';

export const settingsRouter = router({
  get: protectedProcedure.query(getSettings),
  getTimezone: protectedProcedure.query(getTimezone),
  update: protectedProcedure.input(settingsUpdateInput).mutation(updateSettings),
  completeOnboarding: protectedProcedure.input(completeOnboardingInput).mutation(completeOnboarding),
  optimize: protectedProcedure.input(optimizeInput).mutation(optimize),
  optimization: protectedProcedure.input(getOptimizationInput).query(getOptimization),
  simulate: protectedProcedure.input(simulateInput).query(simulate),
  recommendRetention: protectedProcedure.input(recommendRetentionInput).query(recommendRetention),
});
