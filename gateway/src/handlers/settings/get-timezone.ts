// settings.getTimezone: only the learner's timezone, from their settings.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export async function getTimezone({ ctx }: HandlerArgs): Promise<{ timezone: string }> {
  return { timezone: (await asUser(ctx).settings.getSettings({})).timezone };
}
