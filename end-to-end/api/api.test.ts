// The gateway as the browser sees it: sessions, validation, ownership, the SPA, and one trace across the
// gateway, two services and an event. Everything runs as real processes.
import { randomBytes } from 'node:crypto';
import { CardCreated } from '@engram/contracts/events';
import { testContext } from '@engram/testkit/context';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { lastMessage } from '@engram/testkit/streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: its services log at debug level (below), which would flood every other file's logs.
  // Debug level: services then log every gRPC call they handle, with its trace id.
  stack = await startTestStack({ logLevel: 'debug' });
});
afterAll(() => stack?.stop());

const signUp = (name: string) => signUpThroughGateway(stack.url, name);

// The parts of a tRPC answer these tests read.
interface TrpcBody {
  result: { data: { items: { front: string }[] } };
  error: { message: string; data: { code: string } };
}

async function trpc(path: string, input: unknown, cookie?: string, extraHeaders: Record<string, string> = {}) {
  const isQuery = path.endsWith('.list');
  const url = isQuery
    ? `${stack.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`
    : `${stack.url}/api/trpc/${path}`;
  const response = await fetch(url, {
    method: isQuery ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(cookie && { cookie }), ...extraHeaders },
    ...(isQuery ? {} : { body: JSON.stringify(input) }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as TrpcBody };
}

describe('the tRPC API', () => {
  it('refuses a signed-out caller with UNAUTHORIZED', async () => {
    const { status, body } = await trpc('cards.list', {});
    expect(status).toBe(401);
    expect(body.error.data.code).toBe('UNAUTHORIZED');
  });

  it('answers bad input with the reason and stores nothing', async () => {
    const cookie = await signUp('val');
    const { status, body } = await trpc('cards.create', { front: '  ', back: 'b' }, cookie);
    expect(status).toBe(400);
    expect(body.error.data.code).toBe('BAD_REQUEST');
    expect(body.error.message).toContain('Front is required.');
    expect((await trpc('cards.list', {}, cookie)).body.result.data.items).toEqual([]);
  });

  it("never shows one learner another learner's cards", async () => {
    const [alice, bob] = await Promise.all([signUp('alice'), signUp('bob')]);
    const created = await trpc('cards.create', { front: 'alice only', back: 'secret' }, alice);
    expect(created.status).toBe(200);
    const bobs = await trpc('cards.list', { pageSize: 100 }, bob);
    expect(bobs.body.result.data.items).toEqual([]);
    const alices = await trpc('cards.list', {}, alice);
    expect(alices.body.result.data.items.map((c) => c.front)).toEqual(['alice only']);
  });

  it('refuses the cookie of a session signed out through the gateway at once', async () => {
    const cookie = await signUp('leaver');
    expect((await trpc('cards.list', {}, cookie)).status).toBe(200);
    const signedOut = await fetch(`${stack.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url, cookie },
      body: '{}',
    });
    expect(signedOut.status).toBe(200);
    // The browser empties its HTTP cache of the site; its storage (other accounts' unsynced reviews) stays.
    expect(signedOut.headers.get('clear-site-data')).toBe('"cache"');
    const { status, body } = await trpc('cards.list', {}, cookie);
    expect(status).toBe(401);
    expect(body.error.data.code).toBe('UNAUTHORIZED');
  });

  it('marks API answers as never cacheable', async () => {
    const { headers } = await trpc('cards.list', {});
    expect(headers.get('cache-control')).toBe('no-store');
  });
});

describe('one trace across the gateway, two services and an event', () => {
  it('carries the incoming trace id through identity, cards and the card-created event', async () => {
    const cookie = await signUp('tracer');
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const created = await trpc('cards.create', { front: 'traced', back: 'card' }, cookie, { traceparent });
    expect(created.status).toBe(200);

    const traced = (component: string, msg: string) =>
      stack.logs.some((l) => l.component === component && l.entry?.trace_id === traceId && l.entry?.msg === msg);
    const allLogged = () =>
      traced('gateway', 'request') && traced('identity', 'call handled') && traced('cards', 'card created');
    // Log lines arrive through the processes' pipes; give them a moment.
    for (let i = 0; i < 50 && !allLogged(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(traced('gateway', 'request')).toBe(true);
    expect(traced('identity', 'call handled')).toBe(true);
    expect(traced('cards', 'card created')).toBe(true);

    const { streamName, subjectPrefix } = stack.settings;
    const subject = `${subjectPrefix}${CardCreated.subject}`;
    let event = await lastMessage(testContext().natsUrl, streamName, subject);
    for (let i = 0; i < 50 && !event?.headers.traceparent?.includes(traceId); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      event = await lastMessage(testContext().natsUrl, streamName, subject);
    }
    expect(event?.headers.traceparent).toContain(traceId);
  });
});

describe('metrics', () => {
  it('counts requests, gRPC calls and the outbox on the metrics ports', async () => {
    const cookie = await signUp('metered');
    expect((await trpc('cards.create', { front: 'metered', back: 'card' }, cookie)).status).toBe(200);
    const { ports } = stack.settings;
    const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

    const gateway = await scrape(ports.gatewayMetrics);
    expect(gateway).toMatch(
      /http_server_request_duration_seconds_count\{method="POST",route="\/api\/trpc",status="200"\} [1-9]/,
    );
    expect(gateway).toMatch(/grpc_client_handling_seconds_count\{method="[^"]*CreateCard",code="OK"\} [1-9]/);
    const cards = await scrape(ports.metrics.cards);
    expect(cards).toMatch(/grpc_server_handling_seconds_count\{service="cards",method="createCard",code="OK"\} [1-9]/);
    expect(cards).toContain('engram_outbox_unpublished_events');
  });
});

describe('the web app', () => {
  it('serves index.html for client-side routes and JSON 404 for unknown API paths', async () => {
    const page = await fetch(`${stack.url}/dashboard`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");

    const api = await fetch(`${stack.url}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
