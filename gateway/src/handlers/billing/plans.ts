// billing.plans: the plans and their prices. Public: the landing page shows them to visitors, so the
// gateway asks billing as itself, not for a user.
import { unary } from '@engram/kit/grpc/client';
import { USER_CALL } from '../../call.js';
import { AUDIENCES } from '../../clients.js';
import { type PublicHandlerArgs, toTrpcError } from '../../trpc.js';

export interface PlansJson {
  prices: { plan: string; interval: string; currency: string; unitAmount: number }[];
  /** AI-generated cards each plan (free included) allows per billing period. */
  limits: { plan: string; generatedCardsPerPeriod: number }[];
  standIn: boolean;
}

export async function plans({ ctx }: PublicHandlerArgs): Promise<PlansJson> {
  const { billing, signer } = ctx.services;
  try {
    const token = await signer.signSystem('gateway', AUDIENCES.billing);
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
