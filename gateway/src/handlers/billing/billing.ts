// billing.plans, billing.customer, billing.checkout and billing.portal: thin adapters over the billing
// service's gRPC API. The plans are public (the landing page shows them to visitors); the rest act for
// the signed-in user. Checkout passes on the address identity vouched for in this request's session.
import {
  type CheckoutInput,
  type CheckoutSessionInput,
  checkoutInput,
  checkoutSessionInput,
} from '@engram/contracts/billing';
import { unary } from '@engram/kit/grpc/client';
import { asUser, USER_CALL } from '../../call.js';
import { type Context, type ProtectedContext, toTrpcError } from '../../trpc.js';

export { checkoutInput, checkoutSessionInput };

export interface PlansJson {
  prices: { plan: string; interval: string; currency: string; unitAmount: number }[];
  /** AI-generated cards each plan (free included) allows per billing period. */
  limits: { plan: string; generatedCardsPerPeriod: number }[];
  standIn: boolean;
}

export async function plans({ ctx }: { ctx: Context }): Promise<PlansJson> {
  const { billing, signer } = ctx.services;
  try {
    const token = await signer.signSystem('gateway', 'billing');
    const answer = await unary(billing, billing.listPlans, {}, { ...USER_CALL, token, signal: ctx.signal });
    return {
      prices: answer.prices.map((price) => ({ ...price, unitAmount: Number(price.unitAmount) })),
      limits: answer.limits,
      standIn: answer.standIn,
    };
  } catch (error) {
    throw toTrpcError(error);
  }
}

export interface CustomerJson {
  plan: string;
  state: string;
  interval: string;
  currency: string;
  renewsAt: string | null;
  endsAt: string | null;
}

export async function customer({ ctx }: { ctx: ProtectedContext }): Promise<CustomerJson> {
  const answer = await asUser(ctx).billing.getCustomer({});
  return {
    plan: answer.plan,
    state: answer.state,
    interval: answer.interval,
    currency: answer.currency,
    renewsAt: answer.renewsAt?.toISOString() ?? null,
    endsAt: answer.endsAt?.toISOString() ?? null,
  };
}

export async function checkout({
  ctx,
  input,
}: {
  ctx: ProtectedContext;
  input: CheckoutInput;
}): Promise<{ url: string }> {
  const { email, emailVerified } = ctx.session.user;
  return asUser(ctx).billing.createCheckout({ ...input, email, emailVerified });
}

export interface CheckoutSessionJson {
  status: string;
  paid: boolean;
  fulfilled: boolean;
  plan: string;
  interval: string;
  currency: string;
}

/** Where the learner's checkout stands; the success page asks until its subscription is recorded. */
export async function checkoutSession({
  ctx,
  input,
}: {
  ctx: ProtectedContext;
  input: CheckoutSessionInput;
}): Promise<CheckoutSessionJson> {
  return asUser(ctx).billing.getCheckout(input);
}

export async function portal({ ctx }: { ctx: ProtectedContext }): Promise<{ url: string }> {
  return asUser(ctx).billing.createPortal({});
}
