// Rate limits at the edge: per user and per address for tRPC, counted in Redis and shared by every
// gateway replica; better-auth's own limits on sign-in. A client's X-Forwarded-For buys nothing.
// The tests run in order and share one window of counts (the limits below are set for this file).
import { connect, createServer, type Socket } from 'node:net';
import { signUpThroughGateway, startSecondGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PER_USER = 3;
const PER_ADDRESS = 12;
const SIGN_IN_MAX = 3;

let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: its low limits are counted in Redis under the stack's prefix, shared with every gateway
  // of the stack, so the other files' calls would spend them (and its floods theirs).
  stack = await startTestStack({
    extraEnv: {
      TRPC_RATE_LIMIT_PER_USER: String(PER_USER),
      TRPC_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
      TRPC_RATE_LIMIT_WINDOW_SECONDS: '120',
      AUTH_RATE_LIMIT_SIGN_IN_MAX: String(SIGN_IN_MAX),
      AUTH_RATE_LIMIT_WINDOW_SECONDS: '120',
    },
  });
});
afterAll(() => stack?.stop());

const spoofed = () => ({ 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250) + 1}` });

// Always over IPv4: `localhost` may reach a gateway as 127.0.0.1 or as ::1, which are two addresses with
// two counts.
const listCards = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url.replace('//localhost:', '//127.0.0.1:')}/api/trpc/cards.list?input=${encodeURIComponent('{}')}`, {
    headers,
  });

describe('tRPC rate limits', () => {
  it('answers a user over their limit with 429 and Retry-After', async () => {
    const cookie = await signUpThroughGateway(stack.url, 'limited');
    // Allowed, though the very first call may meet a cold service (its deadline): not refused is the point.
    for (let i = 0; i < PER_USER; i++) expect((await listCards(stack.url, { cookie })).status).not.toBe(429);

    const refused = await listCards(stack.url, { cookie });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(120);
    const body = (await refused.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe('TOO_MANY_REQUESTS');
    expect(body.error.message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
  });

  it('still limits an address that claims a different X-Forwarded-For on every request', async () => {
    // The first test spent PER_USER + 1 of this address's requests.
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) statuses.push((await listCards(stack.url, spoofed())).status);
    const allowed = PER_ADDRESS - (PER_USER + 1);
    expect(statuses.slice(0, allowed)).toEqual(Array(allowed).fill(401));
    expect(statuses.slice(allowed)).toEqual(Array(PER_ADDRESS - allowed).fill(429));
  });

  it('shares the count between two gateway instances, from the first request of one that has just started', async () => {
    // The second gateway reaches Redis through a relay that connects only after a while, as on a busy node: it
    // must not report ready, and take requests, while its counts would be kept in its own memory.
    const slowRedis = await startSlowRelay(stack.settings.redisUrl, 1_500);
    const second = await startSecondGateway(stack, { REDIS_URL: slowRedis.url });
    try {
      // This address's count spent through the first gateway, within this test (the window may have
      // turned since the tests above)...
      let status = 0;
      let retryAfter = 0;
      for (let i = 0; i <= 2 * PER_ADDRESS + 1 && !(status === 429 && retryAfter >= 5); i++) {
        const answer = await listCards(stack.url);
        status = answer.status;
        retryAfter = Number(answer.headers.get('retry-after') ?? 0);
        // A count whose window ends within seconds would turn before the second gateway is asked: wait it out.
        if (status === 429 && retryAfter < 5) await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      }
      expect(status).toBe(429);
      // ...is the count the second one sees.
      const refused = await listCards(second.url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await second.stop();
      await slowRedis.close();
    }
  });
});

describe('sign-in rate limits (better-auth, through the gateway)', () => {
  it('answers the attempt after the limit with 429 and Retry-After, whatever X-Forwarded-For says', async () => {
    const signIn = () =>
      fetch(`${stack.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: stack.url, ...spoofed() },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
      });
    for (let i = 0; i < SIGN_IN_MAX; i++) expect((await signIn()).status).toBe(401);
    const refused = await signIn();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

/** A TCP relay to the Redis at `redisUrl` that joins each connection to Redis only after `delayMs`. */
async function startSlowRelay(redisUrl: string, delayMs: number) {
  const relayed = new URL(redisUrl);
  const [redisHost, redisPort] = [relayed.hostname, Number(relayed.port || 6379)];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.pause();
    const timer = setTimeout(() => {
      const upstream = connect(redisPort, redisHost);
      sockets.add(upstream);
      client.pipe(upstream).pipe(client);
      client.resume();
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    }, delayMs);
    client.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  relayed.host = `127.0.0.1:${port}`;
  return {
    url: relayed.toString(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
