// Password guessing slowed per account, whatever the address (credential stuffing spreads its guesses
// over many): wrong passwords at /sign-in/email, /sign-in/username and /sign-in/phone-number are counted in
// Redis by the account they name (its normalised email, also when named by username or phone number; else the
// normalised name), so every replica agrees and an account is not guessed at faster through its other names. Once
// `threshold` of them fall within `windowSeconds` of each other, that account's password sign-ins wait:
// `delaySeconds`, doubled by each further wrong password, never more than `maxDelaySeconds`, so its
// owner is slowed, never locked out (and signing in by a mailed link or code is not slowed at all).
// Meanwhile they answer 429 with Retry-After before the password is looked at, so waiting attempts
// neither count nor tell anything. A correct password once the wait is over starts the count again. The
// owner is told once per episode, in the language they last signed in with, with a link to change it.

import { toE164 } from '@engram/contracts/phone-numbers';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Redis } from 'ioredis';
import type { Db } from '../db.js';
import { type Locale, localeOf } from '../mail/locale.js';
import { LANGUAGE_KEPT_SECONDS, mailLanguageKey } from '../mail/reader-language.js';

export interface PasswordGuessLimits {
  /** Wrong passwords for one account before its sign-ins wait. */
  threshold: number;
  /** How long a wrong password is remembered after the last one. */
  windowSeconds: number;
  /** The first wait; each further wrong password doubles it. */
  delaySeconds: number;
  /** The longest wait. */
  maxDelaySeconds: number;
}

export interface PasswordGuessing extends PasswordGuessLimits {
  redis: Redis;
  /** REDIS_KEY_PREFIX: keys are `<prefix>identity:password-guesses:<account>`. */
  keyPrefix: string;
}

/** Mails the owner that someone is guessing: to their address, in their language. */
export type GuessingNotice = (to: string, locale: Locale) => Promise<void>;

const SIGN_INS = new Set(['/sign-in/email', '/sign-in/username', '/sign-in/phone-number']);
const WRONG_PASSWORD = new Set([
  'INVALID_EMAIL_OR_PASSWORD',
  'INVALID_USERNAME_OR_PASSWORD',
  'INVALID_PHONE_NUMBER_OR_PASSWORD',
]);

// One wrong password, in one step so replicas never lose a count: the wait it starts (KEYS[2], expiring
// with it) and whether it is the first of its episode to reach the threshold (then the owner is told).
const RECORD_WRONG_PASSWORD = `
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local threshold = tonumber(ARGV[1])
local delay = 0
local first = 0
if failures >= threshold then
  delay = math.min(tonumber(ARGV[2]) * 2 ^ (failures - threshold), tonumber(ARGV[3]))
  redis.call('SET', KEYS[2], '1', 'PX', delay)
  first = redis.call('HSETNX', KEYS[1], 'notified', '1')
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[4]) + delay)
return first`;

type SignInBody = { email?: unknown; username?: unknown; phoneNumber?: unknown };

/** Where an account's count, its current wait and its owner's language are kept, by its normalised email. */
export function passwordGuessKeys(keyPrefix: string) {
  const key = (name: string) => `${keyPrefix}identity:${name}`;
  return {
    counted: (account: string) => key(`password-guesses:${account}`),
    waiting: (account: string) => key(`password-guesses:${account}:wait`),
    language: (email: string) => mailLanguageKey(keyPrefix, email),
  };
}

const normalised = (name: unknown) => (typeof name === 'string' ? name.trim().toLowerCase() : '');

export function passwordGuessing(db: Db, settings: PasswordGuessing, notice: GuessingNotice): BetterAuthPlugin {
  const { redis } = settings;
  const { counted, waiting, language } = passwordGuessKeys(settings.keyPrefix);

  /** The account a sign-in names: its email; a username or number of no account is guessed at all the same. */
  async function accountOf(body: SignInBody) {
    const email = normalised(body.email);
    if (email) return email;
    const username = normalised(body.username);
    if (username) {
      const user = await db.user.findUnique({ where: { username }, select: { email: true } });
      return user ? user.email.toLowerCase() : `username:${username}`;
    }
    const phoneNumber = typeof body.phoneNumber === 'string' ? toE164(body.phoneNumber) : null;
    if (!phoneNumber) return undefined;
    const user = await db.user.findUnique({ where: { phoneNumber }, select: { email: true } });
    return user ? user.email.toLowerCase() : `phone:${phoneNumber}`;
  }

  async function refuseWhileWaiting(account: string) {
    const left = await redis.pttl(waiting(account));
    if (left <= 0) return;
    const seconds = Math.ceil(left / 1_000);
    throw new APIError(
      'TOO_MANY_REQUESTS',
      {
        code: 'TOO_MANY_REQUESTS',
        message: `Too many wrong passwords for this account. Please try again in ${seconds} seconds, or sign in with a link or code sent by email.`,
      },
      { 'retry-after': String(seconds) },
    );
  }

  async function recordWrongPassword(account: string) {
    const first = await redis.eval(
      RECORD_WRONG_PASSWORD,
      2,
      counted(account),
      waiting(account),
      settings.threshold,
      settings.delaySeconds * 1_000,
      settings.maxDelaySeconds * 1_000,
      settings.windowSeconds * 1_000,
    );
    return first === 1;
  }

  return {
    id: 'engram-password-guessing',
    hooks: {
      before: [
        {
          matcher: (ctx) => SIGN_INS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const account = await accountOf((ctx.body ?? {}) as SignInBody);
            if (account) await refuseWhileWaiting(account);
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => SIGN_INS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            const code = isAPIError(returned) ? (returned.body as { code?: string } | undefined)?.code : undefined;
            // Refused for another reason (a wait, a ban, an unverified address): not a guess, and not proof.
            if (isAPIError(returned) && !WRONG_PASSWORD.has(code ?? '')) return;
            const account = await accountOf((ctx.body ?? {}) as SignInBody);
            if (!account) return;
            if (!isAPIError(returned)) {
              await redis.del(counted(account), waiting(account));
              return;
            }
            if (!(await recordWrongPassword(account))) return;
            // Only an account that exists has an owner to tell.
            const owner = await db.user.findUnique({ where: { email: account }, select: { email: true } });
            if (owner) await notice(owner.email, localeOf(await redis.get(language(account))));
          }),
        },
        {
          // The language the owner reads, for mails that are not answers to their own request.
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const email = ctx.context.newSession?.user.email;
            const acceptLanguage = ctx.request?.headers.get('accept-language') ?? ctx.headers?.get('accept-language');
            if (email && acceptLanguage) {
              await redis.set(language(email.toLowerCase()), localeOf(acceptLanguage), 'EX', LANGUAGE_KEPT_SECONDS);
            }
          }),
        },
      ],
    },
  };
}
