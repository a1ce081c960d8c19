// Two-factor sign-in (docs/product.md#auth-views): enabling it needs the password and a code from the authenticator
// app; signing in then answers a two-factor redirect and finishes with a TOTP code, an emailed code or a
// backup code (each backup code works once, and new ones can be generated); a trusted device is not
// asked again; a missing or forged two-factor cookie answers INVALID_TWO_FACTOR_COOKIE.
import { BACKUP_CODE_COUNT } from '@engram/contracts/auth-features';
import { codeIn } from '@engram/testkit/mailbox';
import { totpCode } from '@engram/testkit/totp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

/** A verified user who turned two-factor on with their authenticator app; returns what they keep. */
async function userWithTwoFactor(label: string) {
  const email = uniqueEmail(label);
  let cookie = await identity.signUpVerified({ email, password: PASSWORD, name: label });
  const enabled = await identity.post('/api/auth/two-factor/enable', { body: { password: PASSWORD }, cookie });
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const verified = await identity.post('/api/auth/two-factor/verify-totp', {
    body: { code: totpCode(totpURI) },
    cookie,
  });
  expect(verified.status).toBe(200);
  cookie = cookieFrom(verified) || cookie;
  return { email, cookie, totpURI, backupCodes };
}

/** Signs in with the password; two-factor users get the redirect and the two-factor cookie. */
async function signInWithPassword(email: string, headers: Record<string, string> = {}) {
  const response = await identity.post('/api/auth/sign-in/email', { body: { email, password: PASSWORD }, headers });
  expect(response.status).toBe(200);
  return {
    body: (await response.json()) as { twoFactorRedirect?: boolean; token?: string },
    cookie: cookieFrom(response),
  };
}

describe('turning two-factor on', () => {
  it('needs the account password', async () => {
    const email = uniqueEmail('nopass');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'No Pass' });
    const wrong = await identity.post('/api/auth/two-factor/enable', {
      body: { password: 'not the password' },
      cookie,
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    const user = await identity.db.user.findUniqueOrThrow({ where: { email } });
    expect(user.twoFactorEnabled).toBe(false);
  });

  it('shows the QR secret and backup codes once, and is on only after a code from the app', async () => {
    const email = uniqueEmail('qr');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Quinn Qr' });
    const enabled = await identity.post('/api/auth/two-factor/enable', { body: { password: PASSWORD }, cookie });
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Engram:.+\?.*secret=/);
    expect(backupCodes).toHaveLength(BACKUP_CODE_COUNT);
    expect((await identity.db.user.findUniqueOrThrow({ where: { email } })).twoFactorEnabled).toBe(false);

    const wrongCode = await identity.post('/api/auth/two-factor/verify-totp', { body: { code: '000000' }, cookie });
    expect(wrongCode.status).toBe(401);
    expect(await wrongCode.json()).toMatchObject({ code: 'INVALID_CODE' });

    const stored = await identity.db.twoFactor.findFirstOrThrow({ where: { user: { email } } });
    expect(stored.secret).not.toContain(new URL(totpURI).searchParams.get('secret'));
    expect(stored.backupCodes).not.toContain(backupCodes[0]);

    const right = await identity.post('/api/auth/two-factor/verify-totp', {
      body: { code: totpCode(totpURI) },
      cookie,
    });
    expect(right.status).toBe(200);
    expect((await identity.db.user.findUniqueOrThrow({ where: { email } })).twoFactorEnabled).toBe(true);
  });
});

describe('signing in with two-factor on', () => {
  it('answers a two-factor redirect without a session, then signs in with the authenticator code', async () => {
    const { email, totpURI } = await userWithTwoFactor('totp');
    const first = await signInWithPassword(email);
    expect(first.body).toMatchObject({ twoFactorRedirect: true });
    expect(first.cookie).not.toMatch(/session_token=[^;]/);
    expect(first.cookie).toMatch(/two_factor=/);

    const done = await identity.post('/api/auth/two-factor/verify-totp', {
      body: { code: totpCode(totpURI) },
      cookie: first.cookie,
    });
    expect(done.status).toBe(200);
    const session = await identity.getSession({ cookie: cookieFrom(done) });
    expect(session.user?.email).toBe(email);
  });

  it('signs in with a mailed code', async () => {
    const { email } = await userWithTwoFactor('otp');
    const first = await signInWithPassword(email);
    const sent = await identity.post('/api/auth/two-factor/send-otp', { cookie: first.cookie });
    expect(sent.status).toBe(200);
    const code = codeIn(await identity.nextMail(email, /code/i));
    const wrong = await identity.post('/api/auth/two-factor/verify-otp', {
      body: { code: code === '111111' ? '222222' : '111111' },
      cookie: first.cookie,
    });
    expect(wrong.status).toBe(401);
    const done = await identity.post('/api/auth/two-factor/verify-otp', { body: { code }, cookie: first.cookie });
    expect(done.status).toBe(200);
    expect((await identity.getSession({ cookie: cookieFrom(done) })).user?.email).toBe(email);
  });

  it('recovers the account with a backup code, which works only once; new codes replace the old', async () => {
    const { email, cookie, backupCodes } = await userWithTwoFactor('backup');
    const [code, other] = backupCodes;
    const first = await signInWithPassword(email);
    const recovered = await identity.post('/api/auth/two-factor/verify-backup-code', {
      body: { code },
      cookie: first.cookie,
    });
    expect(recovered.status).toBe(200);
    expect((await identity.getSession({ cookie: cookieFrom(recovered) })).user?.email).toBe(email);

    const again = await signInWithPassword(email);
    const reused = await identity.post('/api/auth/two-factor/verify-backup-code', {
      body: { code },
      cookie: again.cookie,
    });
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ code: 'INVALID_BACKUP_CODE' });

    const regenerated = await identity.post('/api/auth/two-factor/generate-backup-codes', {
      body: { password: PASSWORD },
      cookie,
    });
    expect(regenerated.status).toBe(200);
    const { backupCodes: fresh } = (await regenerated.json()) as { backupCodes: string[] };
    expect(fresh).toHaveLength(BACKUP_CODE_COUNT);
    const oldOne = await identity.post('/api/auth/two-factor/verify-backup-code', {
      body: { code: other },
      cookie: again.cookie,
    });
    expect(oldOne.status).toBe(401);
    const newOne = await identity.post('/api/auth/two-factor/verify-backup-code', {
      body: { code: fresh[0] },
      cookie: again.cookie,
    });
    expect(newOne.status).toBe(200);
  });

  it('does not ask a trusted device again', async () => {
    const { email, totpURI } = await userWithTwoFactor('trusted');
    const first = await signInWithPassword(email);
    const done = await identity.post('/api/auth/two-factor/verify-totp', {
      body: { code: totpCode(totpURI), trustDevice: true },
      cookie: first.cookie,
    });
    expect(done.status).toBe(200);
    const trust = cookieFrom(done)
      .split('; ')
      .filter((pair) => pair.startsWith('better-auth.trust_device='))
      .join('; ');
    expect(trust).not.toBe('');

    const trusted = await signInWithPassword(email, { cookie: trust });
    expect(trusted.body.twoFactorRedirect).toBeUndefined();
    expect(trusted.body.token).toEqual(expect.any(String));
    const stranger = await signInWithPassword(email);
    expect(stranger.body.twoFactorRedirect).toBe(true);
  });

  it('answers INVALID_TWO_FACTOR_COOKIE without the two-factor cookie or with a forged one', async () => {
    await userWithTwoFactor('cookie');
    for (const cookie of [undefined, 'better-auth.two_factor=forged.value']) {
      const sent = await identity.post('/api/auth/two-factor/send-otp', { ...(cookie && { cookie }) });
      expect(sent.status).toBe(401);
      expect(await sent.json()).toMatchObject({ code: 'INVALID_TWO_FACTOR_COOKIE' });
    }
  });
});
