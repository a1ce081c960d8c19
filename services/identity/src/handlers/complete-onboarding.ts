// CompleteOnboarding: records when the calling user finished onboarding. Through better-auth's own
// adapter, so the sessions it keeps in Redis carry the new date at once (the route guards read it).
import type { CallContext } from '@engram/kit/grpc/server';
import type { CompleteOnboardingRequest, CompleteOnboardingResponse } from '@engram/proto/identity/v1/identity';
import type { Auth } from '../auth.js';

export function completeOnboarding(auth: Auth) {
  return async (_request: CompleteOnboardingRequest, ctx: CallContext): Promise<CompleteOnboardingResponse> => {
    const { internalAdapter } = await auth.$context;
    const user = await internalAdapter.findUserById(ctx.caller.userId);
    const already = (user as { onboardedAt?: Date | null } | null)?.onboardedAt;
    if (already) return { onboardedAt: already };
    const onboardedAt = new Date();
    await internalAdapter.updateUser(ctx.caller.userId, { onboardedAt });
    ctx.logger.info('user onboarded');
    return { onboardedAt };
  };
}
