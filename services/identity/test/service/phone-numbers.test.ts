// Phone numbers (docs/product.md#phone-numbers): a signed-in learner adds a number and proves it with a code
// texted to it; the number is stored in E.164 however it was typed, on one account only; the learner then signs
// in with it and their password, or with a code. Every refusal is the plugin's own code and changes nothing:
// an invalid number, a number of another account, a wrong, used-up, expired or missing code, a wrong password.
// Codes are limited per number whoever asks, and per address; a code for a number without an account goes
// nowhere unless its learner is signed in. Texts go through SNS where configured (a fake at its protocol),
// into the dev mailbox otherwise; without either, phone numbers are off.
import { OTP_ALLOWED_ATTEMPTS } from '@engram/contracts/auth';
import { SMS_CODES_PER_ACCOUNT_DAILY, SMS_CODES_PER_NUMBER } from '@engram/contracts/phone-numbers';
import { type SnsFake, startSnsFake } from '@engram/testkit/sns-fake';
import { totpCode } from '@engram/testkit/totp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, type IdentityHarness, PASSWORD, startIdentityHarness, uniquePhoneNumber } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

/** The Brazilian way of writing a number: (11) 9xxxx-xxxx after the country code. */
const typedInBrazil = (e164: string) => `+55 (${e164.slice(3, 5)}) ${e164.slice(5, 10)}-${e164.slice(10)}`;

/** The code pending for a number, as better-auth keeps it (in Redis, beside the sessions). */
const pendingKey = (number: string) => `${identity.redisKeyPrefix}identity:verification:phone-number-otp-${number}`;

/** A session cookie that signs someone in (a refusal may send one that clears it). */
const SIGNED_IN = /session_token=[^;]/;

const phoneOf = (id: string) =>
  identity.db.user.findUniqueOrThrow({ where: { id }, select: { phoneNumber: true, phoneNumberVerified: true } });

/** A verified learner with a verified number. */
async function learnerWithNumber(label: string) {
  const user = await identity.signedUpUser(label);
  const number = uniquePhoneNumber();
  const added = await identity.addPhoneNumber(user.cookie, number);
  expect(added.status).toBe(200);
  return { ...user, number };
}

/** Turns two-factor on with the authenticator app, as the learner does; answers the renewed session cookie. */
async function turnTwoFactorOn(cookie: string) {
  const enabled = await identity.post('/api/auth/two-factor/enable', { body: { password: PASSWORD }, cookie });
  const { totpURI } = (await enabled.json()) as { totpURI: string };
  const on = await identity.post('/api/auth/two-factor/verify-totp', { body: { code: totpCode(totpURI) }, cookie });
  expect(on.status).toBe(200);
  return cookieFrom(on) || cookie;
}

const sendCode = (phoneNumber: string, init: { cookie?: string; headers?: Record<string, string> } = {}) =>
  identity.post('/api/auth/phone-number/send-otp', { body: { phoneNumber }, ...init });

describe('adding a phone number', () => {
  it('texts a code to the number as typed, and stores it in E.164, verified, once the code comes back', async () => {
    const user = await identity.signedUpUser('adder');
    const number = uniquePhoneNumber();
    const typed = typedInBrazil(number);

    const sent = await sendCode(typed, { cookie: user.cookie, headers: { 'accept-language': 'pt-BR' } });
    expect(sent.status).toBe(200);
    const [text] = await identity.mailbox(number);
    expect(text).toMatchObject({ channel: 'sms', subject: 'Text message' });
    expect(text?.text).toMatch(
      /^Seu código do Engram é (\d{6})\. Ele vale por 5 minutos\. Não o compartilhe\.\n\n@localhost #\1$/,
    );
    expect((await phoneOf(user.id)).phoneNumber).toBeNull();

    const code = await identity.nextCode(number);
    const verified = await identity.post('/api/auth/phone-number/verify', {
      body: { phoneNumber: typed, code, updatePhoneNumber: true },
      cookie: user.cookie,
    });
    expect(verified.status).toBe(200);
    expect(await phoneOf(user.id)).toEqual({ phoneNumber: number, phoneNumberVerified: true });
    const session = (await (await identity.get('/api/auth/get-session', user.cookie)).json()) as { user: object };
    expect(session.user).toMatchObject({ phoneNumber: number, phoneNumberVerified: true });
  });

  it('words the text in English by default', async () => {
    const user = await identity.signedUpUser('english');
    const number = uniquePhoneNumber();
    expect((await sendCode(number, { cookie: user.cookie })).status).toBe(200);
    expect((await identity.mailbox(number))[0]?.text).toMatch(
      /^Your Engram code is \d{6}\. It works for 5 minutes\. Never share it\.\n\n@localhost #\d{6}$/,
    );
  });

  it.each([
    ['too short', '12345'],
    ['not a number at all', 'call me maybe'],
    ['a number of no country', '+999 1234 5678'],
    ['a Brazilian number without its country code', '(11) 91234-5678'],
  ])('refuses a number that is %s, and texts nothing', async (_, typed) => {
    const user = await identity.signedUpUser('invalid');
    const refused = await sendCode(typed, { cookie: user.cookie });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'INVALID_PHONE_NUMBER' });
  });

  it('changes a number for another one, proved the same way', async () => {
    const user = await learnerWithNumber('changer');
    const other = uniquePhoneNumber();
    expect((await identity.addPhoneNumber(user.cookie, other)).status).toBe(200);
    expect(await phoneOf(user.id)).toEqual({ phoneNumber: other, phoneNumberVerified: true });
  });

  it('refuses a number that is another account’s, and both accounts keep what they had', async () => {
    const owner = await learnerWithNumber('owner');
    const other = await identity.signedUpUser('other');
    const taken = await identity.addPhoneNumber(other.cookie, owner.number, typedInBrazil(owner.number));
    expect(taken.status).toBe(400);
    expect(await taken.json()).toMatchObject({ code: 'PHONE_NUMBER_EXIST' });
    expect((await phoneOf(other.id)).phoneNumber).toBeNull();
    expect((await phoneOf(owner.id)).phoneNumber).toBe(owner.number);
  });

  it('cannot be done by updating the profile: only a code proves a number', async () => {
    const user = await identity.signedUpUser('shortcut');
    const response = await identity.post('/api/auth/update-user', {
      body: { phoneNumber: uniquePhoneNumber() },
      cookie: user.cookie,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'PHONE_NUMBER_CANNOT_BE_UPDATED' });
    expect((await phoneOf(user.id)).phoneNumber).toBeNull();
  });

  it('refuses a wrong code, then the code itself once its attempts are used up', async () => {
    const user = await identity.signedUpUser('wrongcode');
    const number = uniquePhoneNumber();
    await sendCode(number, { cookie: user.cookie });
    const code = await identity.nextCode(number);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const attempt = (value: string) =>
      identity.post('/api/auth/phone-number/verify', {
        body: { phoneNumber: number, code: value, updatePhoneNumber: true },
        cookie: user.cookie,
      });
    for (let n = 0; n < OTP_ALLOWED_ATTEMPTS; n++) {
      const wrong = await attempt(wrongCode);
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ code: 'INVALID_OTP' });
    }
    const usedUp = await attempt(code);
    expect(usedUp.status).toBe(403);
    expect(await usedUp.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    const gone = await attempt(code);
    expect(await gone.json()).toMatchObject({ code: 'OTP_NOT_FOUND' });
    expect((await phoneOf(user.id)).phoneNumber).toBeNull();
  });

  it('refuses an expired code', async () => {
    const user = await identity.signedUpUser('expired');
    const number = uniquePhoneNumber();
    await sendCode(number, { cookie: user.cookie });
    const code = await identity.nextCode(number);
    // What the passing of five minutes does: the code's expiry is behind us (Redis has not dropped it yet).
    const pending = JSON.parse((await identity.redis.get(pendingKey(number))) ?? '{}');
    await identity.redis.set(
      pendingKey(number),
      JSON.stringify({ ...pending, expiresAt: new Date(Date.now() - 1_000) }),
      'KEEPTTL',
    );
    const expired = await identity.post('/api/auth/phone-number/verify', {
      body: { phoneNumber: number, code, updatePhoneNumber: true },
      cookie: user.cookie,
    });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ code: 'OTP_EXPIRED' });
  });

  it('takes a number off the account', async () => {
    const user = await learnerWithNumber('remover');
    const removed = await identity.post('/api/auth/phone-number/remove', { cookie: user.cookie });
    expect(removed.status).toBe(200);
    expect(await phoneOf(user.id)).toEqual({ phoneNumber: null, phoneNumberVerified: false });
    const signIn = await identity.post('/api/auth/sign-in/phone-number', {
      body: { phoneNumber: user.number, password: PASSWORD },
    });
    expect(await signIn.json()).toMatchObject({ code: 'INVALID_PHONE_NUMBER_OR_PASSWORD' });
    expect((await identity.post('/api/auth/phone-number/remove', {})).status).toBe(401);
  });
});

describe('signing in with a phone number', () => {
  it('works with the number, however it is written, and the password', async () => {
    const user = await learnerWithNumber('pwsignin');
    const response = await identity.post('/api/auth/sign-in/phone-number', {
      body: { phoneNumber: typedInBrazil(user.number), password: PASSWORD },
    });
    expect(response.status).toBe(200);
    const session = (await (await identity.get('/api/auth/get-session', cookieFrom(response))).json()) as {
      user: { id: string };
    };
    expect(session.user.id).toBe(user.id);
  });

  it('refuses a wrong password and an unknown number alike', async () => {
    const user = await learnerWithNumber('wrongpw');
    for (const body of [
      { phoneNumber: user.number, password: 'not the password' },
      { phoneNumber: uniquePhoneNumber(), password: PASSWORD },
    ]) {
      const refused = await identity.post('/api/auth/sign-in/phone-number', { body });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'INVALID_PHONE_NUMBER_OR_PASSWORD' });
      expect(cookieFrom(refused)).not.toMatch(SIGNED_IN);
    }
    const invalid = await identity.post('/api/auth/sign-in/phone-number', {
      body: { phoneNumber: '12', password: PASSWORD },
    });
    expect(await invalid.json()).toMatchObject({ code: 'INVALID_PHONE_NUMBER' });
  });

  it('asks for the second factor of a learner who has one', async () => {
    const user = await learnerWithNumber('twofactor');
    await turnTwoFactorOn(user.cookie);
    const response = await identity.post('/api/auth/sign-in/phone-number', {
      body: { phoneNumber: user.number, password: PASSWORD },
    });
    expect(await response.json()).toMatchObject({ twoFactorRedirect: true });
    expect(cookieFrom(response)).not.toMatch(SIGNED_IN);
  });

  it('does not sign in an account with two-factor by a code: its owner is texted why, and no code', async () => {
    const user = await learnerWithNumber('guarded');
    const cookie = await turnTwoFactorOn(user.cookie);
    const seen = (await identity.mailbox(user.number)).length;
    const sent = await sendCode(user.number, { headers: { 'accept-language': 'pt-BR' } });
    expect(await sent.json()).toEqual({ message: 'code sent' });
    const texts = await identity.mailbox(user.number);
    expect(texts).toHaveLength(seen + 1);
    expect(texts[0]?.text).toMatch(/^Alguém pediu para entrar na sua conta do Engram com um código/);
    expect(texts[0]?.text).not.toMatch(/\d{6}/);
    const guessed = await identity.post('/api/auth/phone-number/verify', {
      body: { phoneNumber: user.number, code: '123456' },
    });
    expect(guessed.status).toBe(400);
    expect(cookieFrom(guessed)).not.toMatch(SIGNED_IN);
    // Signed in, the owner still proves a new number by a code.
    expect((await identity.addPhoneNumber(cookie, uniquePhoneNumber())).status).toBe(200);
  });

  it('works with a code texted to the number', async () => {
    const user = await learnerWithNumber('codesignin');
    const seen = (await identity.mailbox(user.number)).length;
    expect((await sendCode(typedInBrazil(user.number))).status).toBe(200);
    const code = await identity.nextCode(user.number, seen);
    const response = await identity.post('/api/auth/phone-number/verify', {
      body: { phoneNumber: user.number, code },
    });
    expect(response.status).toBe(200);
    const session = (await (await identity.get('/api/auth/get-session', cookieFrom(response))).json()) as {
      user: { id: string };
    };
    expect(session.user.id).toBe(user.id);
  });

  it('texts nothing to a number without an account, answers as if it had, and signs no one in with it', async () => {
    const number = uniquePhoneNumber();
    const sent = await sendCode(number);
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ message: 'code sent' });
    expect(await identity.mailbox(number)).toEqual([]);
    // Even with the code that was made (and never sent), no one is signed in.
    const pending = JSON.parse((await identity.redis.get(pendingKey(number))) ?? '{}') as { value: string };
    const guessed = await identity.post('/api/auth/phone-number/verify', {
      body: { phoneNumber: number, code: pending.value.split(':')[0] },
    });
    expect(guessed.status).toBe(400);
    expect(await guessed.json()).toMatchObject({ code: 'INVALID_OTP' });
    expect(cookieFrom(guessed)).not.toMatch(SIGNED_IN);
    expect(await identity.db.user.count({ where: { phoneNumber: number } })).toBe(0);
    const never = await identity.post('/api/auth/phone-number/verify', {
      body: { phoneNumber: uniquePhoneNumber(), code: '123456' },
    });
    expect(await never.json()).toMatchObject({ code: 'OTP_NOT_FOUND' });
  });

  it('offers no password reset by text message (a reset goes by mail)', async () => {
    const user = await learnerWithNumber('reset');
    const response = await identity.post('/api/auth/phone-number/request-password-reset', {
      body: { phoneNumber: user.number },
    });
    expect(response.status).toBe(404);
  });
});

describe('limits on texting codes', () => {
  it(`texts at most ${SMS_CODES_PER_NUMBER.max} codes to a number in ${SMS_CODES_PER_NUMBER.windowSeconds / 60} minutes, from any address`, async () => {
    const user = await learnerWithNumber('limited');
    // The code that added the number was the first.
    for (let n = 1; n < SMS_CODES_PER_NUMBER.max; n++) {
      const sent = await sendCode(user.number, { headers: { 'x-forwarded-for': `198.51.100.${n}` } });
      expect(sent.status).toBe(200);
    }
    const refused = await sendCode(typedInBrazil(user.number), { headers: { 'x-forwarded-for': '198.51.100.99' } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(await refused.json()).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many codes were sent to this number. Please try again in 10 minutes.',
    });
    const texts = (await identity.mailbox(user.number)).filter((mail) => mail.channel === 'sms');
    expect(texts).toHaveLength(SMS_CODES_PER_NUMBER.max);
  });

  it(`texts codes to at most ${SMS_CODES_PER_ACCOUNT_DAILY.max} new numbers a day for one account, from any address`, async () => {
    const user = await identity.signedUpUser('pumper');
    for (let n = 0; n < SMS_CODES_PER_ACCOUNT_DAILY.max; n++) {
      const sent = await sendCode(uniquePhoneNumber(), {
        cookie: user.cookie,
        headers: { 'x-forwarded-for': `198.51.100.${100 + n}` },
      });
      expect(sent.status).toBe(200);
    }
    const number = uniquePhoneNumber();
    const refused = await sendCode(number, { cookie: user.cookie, headers: { 'x-forwarded-for': '198.51.100.200' } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many codes were sent to new numbers from this account. Please try again in 24 hours.',
    });
    expect(await identity.mailbox(number)).toEqual([]);
    // Its own, registered number still gets its codes.
    const other = await learnerWithNumber('unaffected');
    expect((await sendCode(other.number, { cookie: other.cookie })).status).toBe(200);
  });

  it('limits the codes one address asks for, whatever the numbers', async () => {
    const strict = await startIdentityHarness({ rateLimit: { windowSeconds: 60, max: 1_000, signInMax: 3 } });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 4; n++) {
        const response = await strict.post('/api/auth/phone-number/send-otp', {
          body: { phoneNumber: uniquePhoneNumber() },
          headers: { 'x-forwarded-for': '192.0.2.7' },
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await strict.stop();
    }
  });

  it('counts wrong passwords given with a number against the account, like those given with its address', async () => {
    const guarded = await startIdentityHarness({
      passwordGuessing: { threshold: 2, windowSeconds: 600, delaySeconds: 60, maxDelaySeconds: 60 },
    });
    try {
      const user = await guarded.signedUpUser('guessed');
      const number = uniquePhoneNumber();
      expect((await guarded.addPhoneNumber(user.cookie, number)).status).toBe(200);
      for (const phoneNumber of [number, typedInBrazil(number)]) {
        const wrong = await guarded.post('/api/auth/sign-in/phone-number', {
          body: { phoneNumber, password: 'a wrong guess' },
        });
        expect(wrong.status).toBe(401);
      }
      const waiting = await guarded.post('/api/auth/sign-in/email', {
        body: { email: user.email, password: PASSWORD },
      });
      expect(waiting.status).toBe(429);
    } finally {
      await guarded.stop();
    }
  });
});

describe('where texts go', () => {
  let sns: SnsFake;
  let viaSns: IdentityHarness;
  beforeAll(async () => {
    sns = await startSnsFake();
    viaSns = await startIdentityHarness({
      sns: { region: 'sa-east-1', endpoint: sns.url, credentials: { accessKeyId: 'AKIA', secretAccessKey: 's' } },
    });
  });
  afterAll(async () => {
    await viaSns?.stop();
    await sns?.stop();
  });

  it('through SNS where it is configured, and a text SNS refuses fails the request with a reason', async () => {
    const user = await viaSns.signedUpUser('sns');
    const number = uniquePhoneNumber();
    const sent = await viaSns.post('/api/auth/phone-number/send-otp', {
      body: { phoneNumber: number },
      cookie: user.cookie,
    });
    expect(sent.status).toBe(200);
    expect(sns.requests.at(-1)).toMatchObject({
      phoneNumber: number,
      message: expect.stringMatching(/^Your Engram code is \d{6}\./),
    });
    expect(await viaSns.mailbox(number)).toEqual([]);

    sns.rejectNext();
    const refused = await viaSns.post('/api/auth/phone-number/send-otp', {
      body: { phoneNumber: number },
      cookie: user.cookie,
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      code: 'SMS_NOT_SENT',
      message: 'The text message could not be sent. Please try again later.',
    });
  });

  it('nowhere where no sender is configured: phone numbers are off, and the web app is told so', async () => {
    const off = await startIdentityHarness({ sns: 'none' });
    try {
      const config = (await (await off.get('/api/auth/public-config')).json()) as { phoneNumber: boolean };
      expect(config.phoneNumber).toBe(false);
      const user = await off.signedUpUser('off');
      const response = await off.post('/api/auth/phone-number/send-otp', {
        body: { phoneNumber: uniquePhoneNumber() },
        cookie: user.cookie,
      });
      expect(response.status).toBe(404);
      const on = (await (await identity.get('/api/auth/public-config')).json()) as { phoneNumber: boolean };
      expect(on.phoneNumber).toBe(true);
    } finally {
      await off.stop();
    }
  });
});

describe('deleting the account', () => {
  it('takes the number with it, so the number can be added to another account', async () => {
    const user = await learnerWithNumber('leaver');
    const deleted = await identity.post('/api/auth/delete-user', { body: { password: PASSWORD }, cookie: user.cookie });
    expect(deleted.status).toBe(200);
    expect(await identity.db.user.count({ where: { phoneNumber: user.number } })).toBe(0);
    const next = await identity.signedUpUser('heir');
    expect((await identity.addPhoneNumber(next.cookie, user.number)).status).toBe(200);
  });
});
