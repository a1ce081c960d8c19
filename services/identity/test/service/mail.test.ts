// identity's mails through SES (the real SDK against testkit's protocol-level fake): what a new user,
// a forgotten password and a magic link get, in the language the browser asks for, with the link in
// the text; and what a request does when SES refuses its mail.
import { linkIn } from '@engram/testkit/mailbox';
import { type SesFake, startSesFake } from '@engram/testkit/ses-fake';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let ses: SesFake;
let identity: IdentityHarness;
const FROM = 'Engram <no-reply@engram.example>';

beforeAll(async () => {
  ses = await startSesFake();
  identity = await startIdentityHarness({
    ses: {
      region: 'eu-west-1',
      from: FROM,
      endpoint: ses.url,
      credentials: { accessKeyId: 'AKIAENGRAMTEST', secretAccessKey: 'not-a-real-secret' },
    },
  });
});
afterAll(async () => {
  await identity?.stop();
  await ses?.stop();
});

/** The newest SendEmail request to `to`, as SES received it. */
function sentTo(to: string) {
  const request = ses.requests.findLast((r) => r.body.Destination?.ToAddresses?.includes(to));
  const simple = request?.body.Content?.Simple;
  return { request, subject: simple?.Subject?.Data, text: simple?.Body?.Text?.Data, html: simple?.Body?.Html?.Data };
}

describe('sending through SES', () => {
  it('sends a new user the verification link in Brazilian Portuguese when the browser asks for it', async () => {
    const email = uniqueEmail('pt');
    const response = await identity.post('/api/auth/sign-up/email', {
      body: { email, password: PASSWORD, name: 'Paula', callbackURL: '/dashboard' },
      headers: { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' },
    });
    expect(response.status).toBe(200);

    const mail = sentTo(email);
    expect(mail.request?.body.FromEmailAddress).toBe(FROM);
    expect(mail.subject).toBe('Verifique seu e-mail no Engram');
    const link = /http:\/\/localhost:3000\/api\/auth\/verify-email\?token=\S+&callbackURL=%2Fdashboard/.exec(
      mail.text ?? '',
    )?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain(`<a href="${link?.replaceAll('&', '&amp;')}">`);

    const verified = await identity.open(link ?? '');
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toBe('/dashboard');
  });

  it('writes in English when the browser asks for a language Engram does not speak', async () => {
    const email = uniqueEmail('de');
    await identity.post('/api/auth/sign-up/email', {
      body: { email, password: PASSWORD, name: 'Dieter' },
      headers: { 'accept-language': 'de-DE,de;q=0.9' },
    });
    expect(sentTo(email).subject).toBe('Verify your email for Engram');
  });

  it('answers a password reset as usual when SES refuses the mail, as for an address without an account', async () => {
    const email = uniqueEmail('refused');
    await identity.post('/api/auth/sign-up/email', { body: { email, password: PASSWORD, name: 'Rita' } });
    expect((await identity.open(linkIn({ text: sentTo(email).text ?? '' }))).status).toBe(302);

    ses.rejectNext();
    const reset = { redirectTo: '/auth/reset-password' };
    const refused = await identity.post('/api/auth/request-password-reset', { body: { email, ...reset } });
    const unknown = await identity.post('/api/auth/request-password-reset', {
      body: { email: uniqueEmail('nobody'), ...reset },
    });
    expect(sentTo(email).subject).toBe('Reset your Engram password');
    expect(sentTo(email).request?.messageId).toBeUndefined();
    expect([refused.status, await refused.json()]).toEqual([unknown.status, await unknown.json()]);
  });

  it('answers a magic-link request whose mail SES refuses with 503 EMAIL_NOT_SENT, instead of claiming it was sent', async () => {
    const email = uniqueEmail('magic');
    ses.rejectNext();
    const response = await identity.post('/api/auth/sign-in/magic-link', {
      body: { email, callbackURL: '/dashboard' },
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      code: 'EMAIL_NOT_SENT',
      message: 'The email could not be sent. Please try again later.',
    });
    expect(sentTo(email).request?.messageId).toBeUndefined();

    const again = await identity.post('/api/auth/sign-in/magic-link', { body: { email, callbackURL: '/dashboard' } });
    expect(again.status).toBe(200);
    expect(sentTo(email).subject).toBe('Your Engram sign-in link');
  });
});
