// Guessing passwords is slowed per account, not only per address (issue 24, hole 3): wrong passwords for
// one account from many addresses, through two replicas sharing only Redis, make that account's sign-ins
// wait (429 with Retry-After), a wait that grows with each further wrong password up to a cap, while other
// accounts sign in as usual. Once the wait is over the owner signs in with their password, which starts
// the count again; they are told once, in the language they signed in with, with a link to change it.
// The waits are a minute or two, as in production; a test passes one by ending it in Redis, which is what
// the passing of time does (a real wait of a second was over before a busy machine sent the next request).
import { randomBytes } from 'node:crypto';
import { testContext } from '@engram/testkit/context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordGuessKeys } from '../../src/auth/password-guessing.js';
import { type IdentityHarness, PASSWORD, PUBLIC_BASE_URL, startIdentityHarness, uniqueEmail } from '../harness.js';

const LIMITS = { threshold: 3, windowSeconds: 600, delaySeconds: 60, maxDelaySeconds: 120 };
const GUESSING_SUBJECT = /guess your Engram password|adivinhar sua senha do Engram/;
let replicas: [IdentityHarness, IdentityHarness];

beforeAll(async () => {
  const shared = {
    passwordGuessing: LIMITS,
    redisKeyPrefix: `${testContext().subjectPrefix}${randomBytes(3).toString('hex')}:`,
  };
  replicas = (await Promise.all([startIdentityHarness(shared), startIdentityHarness(shared)])) as typeof replicas;
});
afterAll(() => Promise.all(replicas?.map((replica) => replica.stop()) ?? []));

let addresses = 0;
/** A new address each time, as a botnet's would be (the gateway forwards each in X-Forwarded-For). */
const anotherAddress = () => `203.0.113.${++addresses % 250}`;

/** A sign-in by email (or by username), from `address`, through the nth replica. */
function signIn(
  credentials: { email: string; password: string } | { username: string; password: string },
  options: { address?: string; replica?: 0 | 1; language?: string } = {},
) {
  const path = 'email' in credentials ? 'email' : 'username';
  return replicas[options.replica ?? 0].post(`/api/auth/sign-in/${path}`, {
    body: credentials,
    headers: {
      'x-forwarded-for': options.address ?? anotherAddress(),
      ...(options.language && { 'accept-language': options.language }),
    },
  });
}

/** Wrong passwords for `email`, each from another address, alternating between the replicas. */
async function guess(email: string, times: number) {
  for (let i = 0; i < times; i++) {
    const wrong = await signIn({ email, password: `guess number ${i}` }, { replica: i % 2 === 0 ? 0 : 1 });
    expect(wrong.status).toBe(401);
  }
}

async function owner(label: string) {
  const email = uniqueEmail(label);
  const username = `${label}_${randomBytes(3).toString('hex')}`;
  await replicas[0].signUpVerified({ email, password: PASSWORD, name: label, username });
  return { email, username };
}

/** The account's current wait comes to its end, as time would end it. */
async function waitIsOver(account: { email: string }) {
  const [replica] = replicas;
  expect(await replica.redis.del(passwordGuessKeys(replica.redisKeyPrefix).waiting(account.email))).toBe(1);
}

const retryAfter = (response: Response) => Number(response.headers.get('retry-after'));

describe('many wrong passwords for one account from many addresses', () => {
  it("slow that account's sign-ins, by email and by username, and not another account's", async () => {
    const victim = await owner('stuffed');
    const bystander = await owner('bystander');
    await guess(victim.email, LIMITS.threshold);

    const waiting = await signIn({ email: victim.email, password: PASSWORD }, { replica: 1 });
    expect(waiting.status).toBe(429);
    expect(retryAfter(waiting)).toBe(60);
    expect(await waiting.json()).toEqual({
      code: 'TOO_MANY_REQUESTS',
      message:
        'Too many wrong passwords for this account. Please try again in 60 seconds, or sign in with a link or code sent by email.',
    });
    const byUsername = await signIn({ username: victim.username.toUpperCase(), password: PASSWORD });
    expect(byUsername.status).toBe(429);

    const address = anotherAddress();
    expect((await signIn({ email: bystander.email, password: PASSWORD }, { address })).status).toBe(200);
    expect((await signIn({ email: victim.email, password: PASSWORD }, { address })).status).toBe(429);
  });

  it('slow an account that does not exist the same way, so the answer tells nothing', async () => {
    const nobody = uniqueEmail('nobody');
    await guess(nobody, LIMITS.threshold);
    expect((await signIn({ email: nobody, password: PASSWORD })).status).toBe(429);
  });

  it('let the owner in once the wait is over, and the correct password starts the count again', async () => {
    const victim = await owner('patient');
    await guess(victim.email, LIMITS.threshold);
    expect((await signIn({ email: victim.email, password: PASSWORD })).status).toBe(429);
    await waitIsOver(victim);
    const signedIn = await signIn({ email: victim.email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('set-cookie')).toMatch(/better-auth\.session_token=/);

    await guess(victim.email, LIMITS.threshold - 1);
    expect((await signIn({ email: victim.email, password: PASSWORD })).status).toBe(200);
  });

  it('make the wait grow with each further wrong password, never past the cap', async () => {
    const victim = await owner('grown');
    await guess(victim.email, LIMITS.threshold);
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      const refused = await signIn({ email: victim.email, password: PASSWORD });
      expect(refused.status).toBe(429);
      waits.push(retryAfter(refused));
      await waitIsOver(victim);
      expect((await signIn({ email: victim.email, password: 'still guessing' })).status).toBe(401);
    }
    expect(waits).toEqual([60, 120, 120]);
  });

  it('tell the owner once, in the language they signed in with, with a link to change the password', async () => {
    const victim = await owner('warned');
    expect((await signIn({ email: victim.email, password: PASSWORD }, { language: 'pt-BR,pt;q=0.9' })).status).toBe(
      200,
    );
    await guess(victim.email, LIMITS.threshold);
    await waitIsOver(victim);
    const wrong = await signIn({ email: victim.email, password: 'one more guess' }, { language: 'en-US' });
    expect(wrong.status).toBe(401);

    const mail = await replicas[0].nextMail(victim.email, GUESSING_SUBJECT);
    expect(mail.subject).toBe('Alguém está tentando adivinhar sua senha do Engram');
    expect(mail.text).toContain(`${PUBLIC_BASE_URL}/auth/forgot-password`);
    const warnings = (await replicas[1].mailbox(victim.email)).filter((m) => GUESSING_SUBJECT.test(m.subject));
    expect(warnings).toHaveLength(1);
  });
});
