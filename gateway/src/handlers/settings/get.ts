// settings.get: the learner's scheduling settings and their presets.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type SettingsJson, settingsJson } from './json.js';

export async function getSettings({ ctx }: HandlerArgs): Promise<SettingsJson> {
  return settingsJson(await asUser(ctx).settings.getSettings({}));
}
