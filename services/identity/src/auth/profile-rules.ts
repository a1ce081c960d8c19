// The rules for profile fields (docs/product.md#validation-rules) that better-auth does not check itself, answered
// like its own errors: a name longer than NAME_MAX_LENGTH is refused (400 NAME_TOO_LONG) wherever one is given
// (sign-up, update-user, a magic link that creates the account), before anything is written; and asking to change
// the email to the one the account has answers in the product's words, with a code.
import { EMAIL_IS_THE_SAME_MESSAGE, NAME_MAX_LENGTH } from '@engram/contracts/auth';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';

const NAMED_PATHS = new Set(['/sign-up/email', '/update-user', '/sign-in/magic-link']);

export function profileRules(): BetterAuthPlugin {
  return {
    id: 'engram-profile-rules',
    hooks: {
      before: [
        {
          matcher: (ctx) => NAMED_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const name = (ctx.body as { name?: unknown } | undefined)?.name;
            if (typeof name === 'string' && name.trim().length > NAME_MAX_LENGTH) {
              throw new APIError('BAD_REQUEST', {
                code: 'NAME_TOO_LONG',
                message: `Name must be at most ${NAME_MAX_LENGTH} characters.`,
              });
            }
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => {
            const returned = ctx.context.returned;
            return (
              ctx.path === '/change-email' &&
              isAPIError(returned) &&
              (returned.body as { message?: string } | undefined)?.message === 'Email is the same'
            );
          },
          handler: createAuthMiddleware(async () => {
            throw new APIError('BAD_REQUEST', { code: 'EMAIL_IS_THE_SAME', message: EMAIL_IS_THE_SAME_MESSAGE });
          }),
        },
      ],
    },
  };
}
