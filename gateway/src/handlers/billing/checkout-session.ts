// billing.checkoutSession: where the learner's checkout stands; the success page asks until its
// subscription is recorded.
import { type CheckoutSessionInput, checkoutSessionInput } from '@engram/contracts/billing';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { checkoutSessionInput };

export interface CheckoutSessionJson {
  status: string;
  paid: boolean;
  fulfilled: boolean;
  plan: string;
  interval: string;
  currency: string;
}

export async function checkoutSession({ ctx, input }: HandlerArgs<CheckoutSessionInput>): Promise<CheckoutSessionJson> {
  return asUser(ctx).billing.getCheckout(input);
}
