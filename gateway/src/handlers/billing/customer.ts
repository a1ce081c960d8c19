// billing.customer: the signed-in learner's plan and where its subscription stands.
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export interface CustomerJson {
  plan: string;
  state: string;
  interval: string;
  currency: string;
  renewsAt: string | null;
  endsAt: string | null;
}

export async function customer({ ctx }: HandlerArgs): Promise<CustomerJson> {
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
