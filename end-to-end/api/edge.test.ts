// The public edge as an attacker and a careless client meet it: cross-site requests, oversized bodies,
// clean error answers, bounded metrics labels and HSTS. Real gateway, services and Redis.

import { alive } from '@engram/local/ports';
import { signUpThroughGateway, startSecondGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: its tests stop cards and kill identity.
  stack = await startTestStack({ extraEnv: { TRPC_MAX_BODY_BYTES: '65536' } });
});
afterAll(() => stack?.stop());

const signUp = (name: string) => signUpThroughGateway(stack.url, name);

function createCard(cookie: string, front: string, headers: Record<string, string> = {}) {
  return fetch(`${stack.url}/api/trpc/cards.create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body: JSON.stringify({ front, back: 'back' }),
  });
}

async function fronts(cookie: string): Promise<string[]> {
  const response = await fetch(`${stack.url}/api/trpc/cards.list?input=${encodeURIComponent('{}')}`, {
    headers: { cookie },
  });
  const body = (await response.json()) as { result: { data: { items: { front: string }[] } } };
  return body.result.data.items.map((card) => card.front);
}

describe('cross-site requests', () => {
  it('refuses a card created from a foreign Origin with the user’s cookie, and creates nothing', async () => {
    const cookie = await signUp('csrf');
    const response = await createCard(cookie, 'forged', { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 'FORBIDDEN', message: 'Cross-site requests are not allowed.' });
    expect(await fronts(cookie)).toEqual([]);
  });

  it('refuses a cross-site request that sends no Origin but says so in Sec-Fetch-Site or Referer', async () => {
    const cookie = await signUp('fetchsite');
    expect((await createCard(cookie, 'a', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await createCard(cookie, 'b', { referer: 'https://evil.example/page' })).status).toBe(403);
    expect(await fronts(cookie)).toEqual([]);
  });

  it('lets the app’s own origin create cards', async () => {
    const cookie = await signUp('sameorigin');
    const response = await createCard(cookie, 'mine', { origin: stack.url, 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(200);
    expect(await fronts(cookie)).toEqual(['mine']);
  });

  it('refuses a sign-up posted from a foreign Origin at the gateway', async () => {
    const response = await fetch(`${stack.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ email: 'x@example.com', password: 'long enough pw', name: 'x' }),
    });
    expect(response.status).toBe(403);
  });

  it('refuses a form-style request (text/plain body) from a foreign Origin to delete the account, which lives on', async () => {
    const cookie = await signUp('formpost');
    const response = await fetch(`${stack.url}/api/auth/delete-user`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example', cookie },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await fronts(cookie)).toEqual([]);
    const session = await fetch(`${stack.url}/api/auth/get-session`, { headers: { cookie } });
    expect(((await session.json()) as { user: { name: string } }).user.name).toBe('formpost');
  });
});

describe('request bodies', () => {
  it('answers a 20 MB tRPC body with 413 from its declared length and stores nothing', async () => {
    const cookie = await signUp('huge');
    const response = await createCard(cookie, 'x'.repeat(20 * 1024 * 1024), { origin: stack.url });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is too large (at most 65536 bytes).',
    });
    expect(await fronts(cookie)).toEqual([]);
  });

  it('answers a streamed body that grows past the limit with 413 and stores nothing', async () => {
    const cookie = await signUp('streamed');
    const chunk = new TextEncoder().encode(`{"front":"${'z'.repeat(40_000)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 5) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${stack.url}/api/trpc/cards.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    const answer = (await response.json()) as { error: { message: string } };
    expect(answer.error.message).toBe('The request body is too large.');
    expect(await fronts(cookie)).toEqual([]);
  });

  it('accepts a body under the configured limit', async () => {
    const cookie = await signUp('small');
    expect((await createCard(cookie, 'y'.repeat(1_000))).status).toBe(200);
  });
});

describe('error answers', () => {
  it('names the first problem of invalid input in words and lists the field issues in data', async () => {
    const cookie = await signUp('invalid');
    const response = await createCard(cookie, '   ');
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { message: string; data: { code: string; issues: { path: string[]; message: string }[] } };
    };
    expect(error.message).toBe('Front is required.');
    expect(error.data.code).toBe('BAD_REQUEST');
    expect(error.data.issues).toContainEqual({ path: ['front'], message: 'Front is required.' });
  });

  it('answers with a fixed message, never grpc-js details or addresses, when a service is down', async () => {
    const cookie = await signUp('outage');
    await stack.stopComponent('cards');
    const response = await createCard(cookie, 'lost');
    const body = (await response.json()) as { error: { message: string; data: { code: string } } };
    expect(response.status).toBe(503);
    expect(body.error.data.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toBe('The service is unavailable right now. Please try again in a moment.');
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|UNAVAILABLE:/);
  });

  it('answers an account request with 503 and Retry-After while identity restarts, so the web app tries again', async () => {
    // Killed, identity is started again by the runner after half a second: the request comes in between.
    const identity = stack.pids().identity as number;
    process.kill(identity, 'SIGKILL');
    await waitUntil('identity has exited', () => !alive(identity));
    const response = await fetch(`${stack.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url },
      body: JSON.stringify({ email: 'someone@example.com', password: 'long enough pw' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is unavailable right now. Please try again in a moment.',
    });
    await waitUntil(
      'identity answers through the gateway again',
      async () => {
        const session = await fetch(`${stack.url}/api/auth/get-session`);
        await session.body?.cancel();
        return session.status === 200;
      },
      30_000,
    );
  });
});

describe('metrics labels', () => {
  it('counts unknown API paths under one label, however many a client invents', async () => {
    for (const path of ['/api/made-up-1', '/api/made-up-2/deeper']) await fetch(`${stack.url}${path}`);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.settings.ports.gatewayMetrics}/metrics`)).text();
    expect(metrics).toMatch(
      /http_server_request_duration_seconds_count\{method="GET",route="\/api\/other",status="404"\} [2-9]/,
    );
    expect(metrics).not.toContain('made-up');
  });
});

describe('what a page may load', () => {
  it('lets the browser load images from Engram alone, never from another site', async () => {
    const page = await fetch(`${stack.url}/dashboard`, { headers: { accept: 'text/html' } });
    const directives = (page.headers.get('content-security-policy') ?? '').split('; ');
    expect(directives).toContain("img-src 'self' data:");
  });

  it("lets a configured captcha's widget load, and only that captcha's: none loads where none is configured", async () => {
    const directivesOf = async (url: string) =>
      (await fetch(`${url}/auth/sign-up`, { headers: { accept: 'text/html' } })).headers
        .get('content-security-policy')
        ?.split('; ') ?? [];
    const plain = await directivesOf(stack.url);
    expect(plain).toContain("script-src 'self'");
    expect(plain.some((directive) => directive.startsWith('frame-src'))).toBe(false);
    for (const [provider, script, frame] of [
      [
        'hcaptcha',
        "script-src 'self' https://hcaptcha.com https://*.hcaptcha.com",
        'frame-src https://hcaptcha.com https://*.hcaptcha.com',
      ],
      [
        'cloudflare-turnstile',
        "script-src 'self' https://challenges.cloudflare.com",
        'frame-src https://challenges.cloudflare.com',
      ],
      [
        'google-recaptcha-v2-checkbox',
        "script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/",
        'frame-src https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/',
      ],
    ] as const) {
      const gateway = await startSecondGateway(stack, { CAPTCHA_PROVIDER: provider });
      try {
        const directives = await directivesOf(gateway.url);
        expect(directives, provider).toContain(script);
        expect(directives, provider).toContain(frame);
      } finally {
        await gateway.stop();
      }
    }
  });

  it("serves the signed-in user's Gravatar from Engram's origin (here configured off: 204, initials show)", async () => {
    const cookie = await signUp('gravatar');
    const picture = await fetch(`${stack.url}/api/auth/gravatar?size=96`, { headers: { cookie } });
    expect(picture.status).toBe(204);
    expect((await fetch(`${stack.url}/api/auth/gravatar?size=96`)).status).toBe(401);
  });
});

describe('transport security', () => {
  it('sends no HSTS over plain http from an untrusted peer, whatever X-Forwarded-Proto claims', async () => {
    const response = await fetch(`${stack.url}/`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS when a trusted proxy says the request came over https', async () => {
    const behindProxy = await startSecondGateway(stack, { TRUSTED_PROXIES: '127.0.0.1/8,::1' });
    try {
      const response = await fetch(`${behindProxy.url}/`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await behindProxy.stop();
    }
  });
});
