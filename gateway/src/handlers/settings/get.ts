// settings.get: the learner's scheduling settings.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export async function getSettings({ ctx }: HandlerArgs) {
  return asUser(ctx).settings.getSettings({});
}
