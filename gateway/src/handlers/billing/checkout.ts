// billing.checkout: starts a checkout for a plan and answers its page's address. It passes on the address
// identity vouched for in this request's session.
import { type CheckoutInput, checkoutInput } from '@engram/contracts/billing';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { checkoutInput };

export async function checkout({ ctx, input }: HandlerArgs<CheckoutInput>): Promise<{ url: string }> {
  const { email, emailVerified } = ctx.session.user;
  return asUser(ctx).billing.createCheckout({ ...input, email, emailVerified });
}
