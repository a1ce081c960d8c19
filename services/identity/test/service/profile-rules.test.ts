// The limits on a name (docs/product.md#validation-rules), wherever one is given, refused before anything is written.
import { NAME_MAX_LENGTH } from '@engram/contracts/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness, uniqueEmail } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

const TOO_LONG = { code: 'NAME_TOO_LONG', message: `Name must be at most ${NAME_MAX_LENGTH} characters.` };

describe('the name', () => {
  it(`signs up a name of ${NAME_MAX_LENGTH} characters, and refuses one more without creating the account`, async () => {
    const fits = uniqueEmail('fits');
    expect((await identity.signUp({ email: fits, password: PASSWORD, name: 'n'.repeat(NAME_MAX_LENGTH) })).status).toBe(
      200,
    );

    const email = uniqueEmail('long');
    const response = await identity.signUp({ email, password: PASSWORD, name: 'n'.repeat(NAME_MAX_LENGTH + 1) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(TOO_LONG);
    expect(await identity.db.user.count({ where: { email } })).toBe(0);
    expect(await identity.mailbox(email)).toEqual([]);
  });

  it('refuses a rename past the limit and keeps the name', async () => {
    const email = uniqueEmail('renamer');
    const cookie = await identity.signUpVerified({ email, password: PASSWORD, name: 'Short' });
    const response = await identity.post('/api/auth/update-user', {
      cookie,
      body: { name: 'n'.repeat(NAME_MAX_LENGTH + 1) },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(TOO_LONG);
    expect((await identity.db.user.findUniqueOrThrow({ where: { email } })).name).toBe('Short');
  });

  it('refuses a magic link that would create an account with a name past the limit, and mails nothing', async () => {
    const email = uniqueEmail('linked');
    const response = await identity.post('/api/auth/sign-in/magic-link', {
      body: { email, name: 'n'.repeat(NAME_MAX_LENGTH + 1), callbackURL: '/dashboard' },
    });
    expect(response.status).toBe(400);
    expect(await identity.mailbox(email)).toEqual([]);
  });
});
