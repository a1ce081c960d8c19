// billing.portal: the address of the payment provider's customer portal for the signed-in learner.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export async function portal({ ctx }: HandlerArgs): Promise<{ url: string }> {
  return asUser(ctx).billing.createPortal({});
}
