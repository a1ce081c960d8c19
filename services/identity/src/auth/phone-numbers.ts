// Phone numbers (docs/product.md#phone-numbers), through better-auth's phone-number plugin: a signed-in learner
// adds a number and proves it with a code sent by SMS (POST /phone-number/send-otp, then /phone-number/verify
// with updatePhoneNumber), then signs in with the number and their password (/sign-in/phone-number) or with a
// code (send-otp, then verify). Only a verified number is ever stored, in E.164, one account per number.
//
// Around the plugin, Engram's rules:
// - Every number a request names is read with libphonenumber-js and handed on in E.164, so "+55 (11) 91234-5678"
//   and "+5511912345678" are one number; what is not a valid number is refused, INVALID_PHONE_NUMBER.
// - Codes sent to one number are limited whoever asks (SMS_CODES_PER_NUMBER, and a daily cap), counted in Redis
//   so every replica agrees; the per-address limit is better-auth's, with the sign-in numbers (auth.ts).
// - A code is texted to a number without an account only for a signed-in learner adding it, and to at most
//   SMS_CODES_PER_ACCOUNT_DAILY such numbers a day per account. Anyone else is answered as if it had gone ("code
//   sent"): the answer tells no one whether a number has an account, and nobody can make Engram text numbers it
//   has no business with.
// - A code that signs in a number without an account fails as a wrong code would, never with a server error.
// - A code by text does not sign in an account with two-factor on (a text is a weaker factor than the second one):
//   its owner is texted that, and no code; the requester is answered "code sent" as always.
// - POST /phone-number/remove takes the number off the account.
import { OTP_ALLOWED_ATTEMPTS, OTP_EXPIRES_IN_SECONDS, OTP_LENGTH } from '@engram/contracts/auth';
import { SMS_NOT_SENT } from '@engram/contracts/auth-features';
import {
  SMS_CODES_PER_ACCOUNT_DAILY,
  SMS_CODES_PER_NUMBER,
  SMS_CODES_PER_NUMBER_DAILY,
  toE164,
} from '@engram/contracts/phone-numbers';
import type { Logger } from '@engram/kit/logger';
import { SmsDeliveryError, type SmsSender } from '@engram/kit/sms/sender';
import type { BetterAuthPlugin } from 'better-auth';
import {
  APIError,
  createAuthEndpoint,
  createAuthMiddleware,
  getSessionFromCtx,
  sessionMiddleware,
} from 'better-auth/api';
import { phoneNumber } from 'better-auth/plugins';
import type { Redis } from 'ioredis';
import type { Db } from '../db.js';
import { localeOf } from '../mail/locale.js';
import { MESSAGES } from '../mail/messages.js';

export interface PhoneNumberSettings {
  sms: SmsSender;
  redis: Redis;
  /** REDIS_KEY_PREFIX: the counts are `<prefix>identity:sms-codes:<window>:<number>`. */
  keyPrefix: string;
  /** The app's origin: its host ends every text, for the phone's browser to fill the code in. */
  publicBaseUrl: string;
  logger?: Logger | undefined;
}

/** The paths whose body names a number, and so are read in E.164 first. */
const NUMBERED_PATHS = new Set(['/phone-number/send-otp', '/phone-number/verify', '/sign-in/phone-number']);

/** A password is reset by a mailed link; the plugin's reset by SMS is not offered (auth.ts turns it off). */
export const PHONE_PASSWORD_RESET_PATHS = ['/phone-number/request-password-reset', '/phone-number/reset-password'];

const invalidNumber = () =>
  new APIError('BAD_REQUEST', { code: 'INVALID_PHONE_NUMBER', message: 'Invalid phone number' });

const notSent = () =>
  new APIError('SERVICE_UNAVAILABLE', {
    code: SMS_NOT_SENT,
    message: 'The text message could not be sent. Please try again later.',
  });

// One more code for a number in both windows, in one step; answers the seconds to wait when either is full
// (the request is then not counted), else 0.
const COUNT_CODE = `
for i = 1, 2 do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used >= tonumber(ARGV[i * 2 - 1]) then
    local left = redis.call('PTTL', KEYS[i])
    if left < 0 then left = tonumber(ARGV[i * 2]) * 1000 end
    return math.ceil(left / 1000)
  end
end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], tonumber(ARGV[i * 2])) end
end
return 0`;

function retryIn(seconds: number, to: 'this number' | 'new numbers from this account') {
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.ceil(seconds / 3_600);
  const wait =
    seconds < 60
      ? `${seconds} seconds`
      : minutes <= 90
        ? `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`
        : `${hours} hours`;
  return new APIError(
    'TOO_MANY_REQUESTS',
    { code: 'TOO_MANY_REQUESTS', message: `Too many codes were sent to ${to}. Please try again in ${wait}.` },
    { 'retry-after': String(seconds) },
  );
}

// One more code for an account's new numbers in a day; answers the seconds to wait when the day is full, else 0.
const COUNT_ACCOUNT_CODE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used >= tonumber(ARGV[1]) then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then left = tonumber(ARGV[2]) * 1000 end
  return math.ceil(left / 1000)
end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2])) end
return 0`;

/** better-auth's phone-number plugin with Engram's texts, and the rules above around it. */
export function phoneNumbers(db: Db, settings: PhoneNumberSettings): BetterAuthPlugin[] {
  const host = new URL(settings.publicBaseUrl).hostname;
  const ownerOf = (number: string) =>
    db.user.findFirst({
      where: { phoneNumber: number, phoneNumberVerified: true },
      select: { id: true, twoFactorEnabled: true },
    });
  const registered = async (number: string) => (await ownerOf(number)) !== null;

  async function countCode(number: string) {
    const key = (window: string) => `${settings.keyPrefix}identity:sms-codes:${window}:${number}`;
    const wait = await settings.redis.eval(
      COUNT_CODE,
      2,
      key('short'),
      key('day'),
      SMS_CODES_PER_NUMBER.max,
      SMS_CODES_PER_NUMBER.windowSeconds,
      SMS_CODES_PER_NUMBER_DAILY.max,
      SMS_CODES_PER_NUMBER_DAILY.windowSeconds,
    );
    if (Number(wait) > 0) throw retryIn(Number(wait), 'this number');
  }

  /** Codes to numbers without an account, for the signed-in learner adding one: a day's worth per account. */
  async function countAccountCode(userId: string) {
    const wait = await settings.redis.eval(
      COUNT_ACCOUNT_CODE,
      1,
      `${settings.keyPrefix}identity:sms-codes:account:${userId}`,
      SMS_CODES_PER_ACCOUNT_DAILY.max,
      SMS_CODES_PER_ACCOUNT_DAILY.windowSeconds,
    );
    if (Number(wait) > 0) throw retryIn(Number(wait), 'new numbers from this account');
  }

  const rules: BetterAuthPlugin = {
    id: 'engram-phone-numbers',
    endpoints: {
      removePhoneNumber: createAuthEndpoint(
        '/phone-number/remove',
        { method: 'POST', use: [sessionMiddleware] },
        async (ctx) => {
          await ctx.context.internalAdapter.updateUser(ctx.context.session.user.id, {
            phoneNumber: null,
            phoneNumberVerified: false,
          });
          return ctx.json({ status: true });
        },
      ),
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => NUMBERED_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as { phoneNumber?: unknown; updatePhoneNumber?: unknown };
            if (typeof body.phoneNumber !== 'string') return; // the plugin's own schema answers
            const number = toE164(body.phoneNumber);
            if (!number) throw invalidNumber();
            if (ctx.path === '/phone-number/send-otp') await countCode(number);
            if (ctx.path === '/phone-number/verify' && body.updatePhoneNumber !== true && !(await registered(number))) {
              // Signing in by a code needs a number with an account: the same answers as for a wrong code.
              const pending = await ctx.context.internalAdapter.findVerificationValue(`phone-number-otp-${number}`);
              throw new APIError(
                'BAD_REQUEST',
                pending
                  ? { code: 'INVALID_OTP', message: 'Invalid OTP' }
                  : {
                      code: 'OTP_NOT_FOUND',
                      message: 'OTP not found',
                    },
              );
            }
            return { context: { body: { ...body, phoneNumber: number } } };
          }),
        },
      ],
    },
  };

  const plugin = phoneNumber({
    otpLength: OTP_LENGTH,
    expiresIn: OTP_EXPIRES_IN_SECONDS,
    allowedAttempts: OTP_ALLOWED_ATTEMPTS,
    requireVerification: true,
    phoneNumberValidator: (number) => toE164(number) === number,
    async sendOTP({ phoneNumber: number, code }, ctx) {
      const owner = await ownerOf(number);
      const session = ctx && (await getSessionFromCtx(ctx));
      if (!owner) {
        if (!session) {
          settings.logger?.info('a code for a number without an account was asked for by no one signed in: not sent');
          return;
        }
        await countAccountCode(session.user.id);
      }
      const headers = ctx?.request?.headers ?? ctx?.headers;
      const messages = MESSAGES[localeOf(headers?.get('accept-language') ?? null)];
      // A sign-in by code for an account with two-factor: its owner learns why no code came.
      const signingIn = owner && session?.user.id !== owner.id;
      const text = signingIn && owner.twoFactorEnabled ? messages.smsTwoFactor() : messages.smsCode(code, host);
      await settings.sms.send({ to: number, text }).catch((error: unknown) => {
        if (error instanceof SmsDeliveryError) throw notSent();
        throw error;
      });
    },
  });
  return [rules, plugin];
}
