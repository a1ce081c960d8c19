// An account's calls through the gateway as the better-auth client sends them (JSON, the app's Origin,
// the session cookie), and the clock moved forward where a test is about expiry.
//
// Moving time: identity keeps pending codes and links in Redis (better-auth's secondary storage,
// `<prefix>identity:verification:*`, JSON with an `expiresAt`) and sessions in PostgreSQL with a copy in
// Redis under their token. Rewriting those dates is what the passing of time would do to them.
import { createPool } from '@engram/kit/db';
import { cookieFrom } from '@engram/testkit/mailbox';
import type { TestStack } from '@engram/testkit/stack';
import { Redis } from 'ioredis';

// biome-ignore lint/suspicious/noExplicitAny: answers are read as the web app reads them, by shape
export type Json = any;

export function authClient(stack: TestStack, gatewayUrl = stack.url) {
  const post = (path: string, body: unknown = {}, cookie?: string) =>
    fetch(`${gatewayUrl}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url, ...(cookie && { cookie }) },
      body: JSON.stringify(body),
    });
  const get = (path: string, cookie?: string) =>
    fetch(`${gatewayUrl}/api/auth${path}`, { ...(cookie && { headers: { cookie } }) });
  return {
    post,
    get,
    /** The signed-in user, or null. */
    async session(cookie: string): Promise<Json> {
      return (await get('/get-session', cookie)).json();
    },
    async signIn(email: string, password: string): Promise<string> {
      const response = await post('/sign-in/email', { email, password });
      if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
      return cookieFrom(response);
    },
    /** A tRPC query as the web app sends it; resolves with the HTTP status and the answer. */
    async trpc(path: string, cookie: string, input: unknown = {}): Promise<{ status: number; body: Json }> {
      const response = await fetch(
        `${gatewayUrl}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
        {
          headers: { cookie },
        },
      );
      return { status: response.status, body: await response.json() };
    },
    async trpcMutation(path: string, cookie: string, input: unknown): Promise<{ status: number; body: Json }> {
      const response = await fetch(`${gatewayUrl}/api/trpc/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: stack.url, cookie },
        body: JSON.stringify(input),
      });
      return { status: response.status, body: await response.json() };
    },
  };
}

/** The session token a cookie carries (`better-auth.session_token=<token>.<signature>`). */
export function sessionTokenIn(cookie: string): string {
  const value = /better-auth\.session_token=([^;]+)/.exec(cookie)?.[1];
  if (!value) throw new Error('no session cookie');
  return decodeURIComponent(value).split('.')[0] ?? '';
}

function schemaUrl(stack: TestStack, schema: string): string {
  const url = new URL(stack.databaseUrl);
  url.searchParams.set('schema', schema);
  return url.toString();
}

/** Runs `work` with a Redis client and the stack's key prefix. */
async function withRedis<T>(stack: TestStack, work: (redis: Redis, prefix: string) => Promise<T>): Promise<T> {
  const redis = new Redis(stack.settings.redisUrl);
  try {
    return await work(redis, stack.settings.redisKeyPrefix ?? 'engram:');
  } finally {
    redis.disconnect();
  }
}

/** Every code and link identity is waiting for now expires, as if their minutes had passed. */
export function expirePendingCodes(stack: TestStack): Promise<number> {
  return withRedis(stack, async (redis, prefix) => {
    const keys = await redis.keys(`${prefix}identity:verification:*`);
    for (const key of keys) {
      const stored = JSON.parse((await redis.get(key)) ?? '{}') as { expiresAt?: string };
      stored.expiresAt = new Date(Date.now() - 1_000).toISOString();
      await redis.set(key, JSON.stringify(stored), 'KEEPTTL');
    }
    return keys.length;
  });
}

/** The session with this cookie becomes `seconds` older: its row is aged, its copy in Redis dropped. */
export async function ageSession(stack: TestStack, cookie: string, seconds: number): Promise<void> {
  const token = sessionTokenIn(cookie);
  const pool = createPool(schemaUrl(stack, 'identity'), { max: 1 });
  try {
    const { rowCount } = await pool.query(
      'UPDATE sessions SET created_at = created_at - make_interval(secs => $2) WHERE token = $1',
      [token, seconds],
    );
    if (rowCount !== 1) throw new Error('no session to age');
  } finally {
    await pool.end();
  }
  await withRedis(stack, (redis, prefix) => redis.del(`${prefix}identity:${token}`));
}

/** How many cards the cards service keeps for `ownerId`. */
export async function cardsOwnedBy(stack: TestStack, ownerId: string): Promise<number> {
  const pool = createPool(schemaUrl(stack, 'cards'), { max: 1 });
  try {
    const { rows } = await pool.query<{ count: string }>('SELECT count(*) FROM cards WHERE owner_id = $1', [ownerId]);
    return Number(rows[0]?.count);
  } finally {
    await pool.end();
  }
}

/**
 * The cards of the learner signed in with `cookie` were made `days` earlier than they were: reviews a device syncs
 * (never dated before their card) may then be dated back to then.
 */
export async function cardsMadeEarlier(stack: TestStack, cookie: string, days: number): Promise<void> {
  const { user } = await authClient(stack).session(cookie);
  const pool = createPool(schemaUrl(stack, 'cards'), { max: 1 });
  try {
    await pool.query('UPDATE cards SET created_at = created_at - make_interval(days => $2) WHERE owner_id = $1', [
      user.id,
      days,
    ]);
  } finally {
    await pool.end();
  }
}
