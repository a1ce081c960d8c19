// The settings procedures: the learner's scheduling settings, onboarding, their presets by tag, fitting a preset's
// parameters, simulating its workload and rescheduling its cards.
import { completeOnboarding, completeOnboardingInput } from '../handlers/settings/complete-onboarding.js';
import { createPreset, createPresetInput } from '../handlers/settings/create-preset.js';
import { deletePreset, deletePresetInput } from '../handlers/settings/delete-preset.js';
import { getSettings } from '../handlers/settings/get.js';
import { getTimezone } from '../handlers/settings/get-timezone.js';
import { getOptimization, getOptimizationInput } from '../handlers/settings/optimization.js';
import { optimize, optimizeInput } from '../handlers/settings/optimize.js';
import { previewReschedule, rescheduleInput } from '../handlers/settings/preview-reschedule.js';
import { recommendRetention, recommendRetentionInput } from '../handlers/settings/recommend-retention.js';
import { reschedule } from '../handlers/settings/reschedule.js';
import { simulate, simulateInput } from '../handlers/settings/simulate.js';
import { settingsUpdateInput, updateSettings } from '../handlers/settings/update.js';
import { updatePreset, updatePresetInput } from '../handlers/settings/update-preset.js';
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
  createPreset: protectedProcedure.input(createPresetInput).mutation(createPreset),
  updatePreset: protectedProcedure.input(updatePresetInput).mutation(updatePreset),
  deletePreset: protectedProcedure.input(deletePresetInput).mutation(deletePreset),
  previewReschedule: protectedProcedure.input(rescheduleInput).query(previewReschedule),
  reschedule: protectedProcedure.input(rescheduleInput).mutation(reschedule),
});
