// settings.update: changes the given settings; the others stay as they are.
import { type SettingsUpdateInput, settingsUpdateInput } from '@engram/contracts/learning';
import type { HandlerArgs } from '../../trpc.js';
import { saveSettings } from './settings-changes.js';

export { settingsUpdateInput };

export async function updateSettings({ ctx, input }: HandlerArgs<SettingsUpdateInput>) {
  return saveSettings(ctx, input);
}
