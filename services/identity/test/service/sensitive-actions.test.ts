// Sensitive actions and session freshness (docs/product.md#states-and-transitions): a session older than
// SESSION_FRESH_AGE_SECONDS may not list sessions or delete the account without the password, and is told so in the
// product's words.
import { SESSION_FRESH_AGE_SECONDS, SESSION_NOT_FRESH_MESSAGE } from '@engram/contracts/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IdentityHarness, PASSWORD, startIdentityHarness } from '../harness.js';

let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentityHarness();
});
afterAll(() => identity?.stop());

const signedUp = (label: string) => identity.signedUpUser(label);

const NOT_FRESH = { code: 'SESSION_NOT_FRESH', message: SESSION_NOT_FRESH_MESSAGE };

describe('session freshness', () => {
  it('lists the sessions of a session just short of the freshness age', async () => {
    const { cookie } = await signedUp('nearly');
    await identity.ageSession(cookie, SESSION_FRESH_AGE_SECONDS - 60);
    const response = await identity.get('/api/auth/list-sessions', cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(1);
  });

  it('refuses to list sessions for a session past the freshness age, in the product’s words', async () => {
    const { cookie } = await signedUp('stale');
    await identity.ageSession(cookie, SESSION_FRESH_AGE_SECONDS + 60);
    const response = await identity.get('/api/auth/list-sessions', cookie);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(NOT_FRESH);
    expect((await identity.getSession({ cookie })).authenticated).toBe(true);
  });
});

describe('deleting the account', () => {
  it('refuses a stale session without the password in the same words, and deletes nothing', async () => {
    const { email, cookie } = await signedUp('keeper');
    await identity.ageSession(cookie, SESSION_FRESH_AGE_SECONDS + 60);
    const response = await identity.post('/api/auth/delete-user', { cookie });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual(NOT_FRESH);
    expect(await identity.db.user.count({ where: { email } })).toBe(1);
  });

  it('deletes the account of a stale session given the password, and ends its sessions', async () => {
    const { email, cookie } = await signedUp('leaver');
    await identity.ageSession(cookie, SESSION_FRESH_AGE_SECONDS + 60);
    const response = await identity.post('/api/auth/delete-user', { cookie, body: { password: PASSWORD } });
    expect(response.status).toBe(200);
    expect(await identity.db.user.count({ where: { email } })).toBe(0);
    expect((await identity.getSession({ cookie })).authenticated).toBe(false);
  });

  it('refuses a wrong password and deletes nothing', async () => {
    const { email, cookie } = await signedUp('fumbler');
    const response = await identity.post('/api/auth/delete-user', { cookie, body: { password: 'not my password' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    expect(await identity.db.user.count({ where: { email } })).toBe(1);
  });
});
