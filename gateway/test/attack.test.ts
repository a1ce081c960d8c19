// Engram as an attacker meets it, through the real gateway and every service: every tRPC procedure called
// with another user's and another organization's ids, every gRPC method of every service without an
// internal token and with a forged, expired, wrong-audience or unsigned one, every write sent cross-site,
// every procedure with a signed-out session, and every procedure's input fuzzed (fast-check). The promise:
// no call succeeds against someone else's data, none answers 5xx, and a refused call changes nothing.
import { randomBytes, randomUUID } from 'node:crypto';
import { createInternalTokenSigner, generateInternalKeys } from '@engram/kit/internal-auth';
import { AiServiceService } from '@engram/proto/ai/v1/ai';
import { BillingServiceService } from '@engram/proto/billing/v1/billing';
import { CardsServiceService } from '@engram/proto/cards/v1/cards';
import { MetricsServiceService } from '@engram/proto/cards/v1/metrics';
import { ReviewServiceService } from '@engram/proto/cards/v1/review';
import { SettingsServiceService } from '@engram/proto/cards/v1/settings';
import { IdentityServiceService } from '@engram/proto/identity/v1/identity';
import { OrganizationsServiceService } from '@engram/proto/organizations/v1/organizations';
import { startTestStack, type TestStack } from '@engram/testkit/stack';
import { Client, credentials, Metadata, type ServiceDefinition, status } from '@grpc/grpc-js';
import fc from 'fast-check';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../src/router.ts';
import { authAction, type Person, signedUpPerson } from './support/people.ts';
import type { Json } from './support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  // The per-user and per-address limits would refuse the fuzzer long before it is done; the limits have
  // tests of their own (rate-limits.test.ts).
  stack = await startTestStack({
    extraEnv: { TRPC_RATE_LIMIT_PER_USER: '1000000', TRPC_RATE_LIMIT_PER_ADDRESS: '1000000' },
  });
  victim = await victimActiveEverywhere();
  attacker = await person('attacker');
  attackerOrg = await organization(attacker, 'create', { name: 'Intruders', slug: `intruders-${suffix()}` });
  attackerTag = await call(attacker, 'cards.createTag', { name: 'intruder tag' });
}, 180_000);
afterAll(() => stack?.stop());

// ---------------------------------------------------------------------------------------------------------
// People and their calls

/** One tRPC call's answer as the browser gets it: the HTTP status and the body. */
interface Answer {
  status: number;
  body: Json;
}

const suffix = () => randomBytes(4).toString('hex');

const person = (label: string) => signedUpPerson(stack.url, label);

const procedures = () =>
  Object.entries((appRouter as unknown as { _def: { procedures: Record<string, Json> } })._def.procedures).map(
    ([path, procedure]) => ({ path, type: procedure._def.type as 'query' | 'mutation' }),
  );
const typeOf = (path: string) => procedures().find((p) => p.path === path)?.type;

/** Calls a procedure as the web app would (GET for a query, POST for a mutation), whatever comes back. */
async function send(
  who: { cookie: string },
  path: string,
  input: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const common = { origin: stack.url, cookie: who.cookie, ...headers };
  const response =
    typeOf(path) === 'query'
      ? await fetch(
          `${stack.url}/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          { headers: common },
        )
      : await fetch(`${stack.url}/api/trpc/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...common },
          body: input === undefined ? undefined : JSON.stringify(input),
        });
  const text = await response.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

/** A call that must succeed: its data. */
async function call(who: Person, path: string, input?: unknown): Promise<Json> {
  const answer = await send(who, path, input);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.result.data;
}

/** better-auth's organization endpoints as the web app calls them. */
const organization = (who: Person, path: string, body: unknown) =>
  authAction(stack.url, who, `organization/${path}`, body);

// ---------------------------------------------------------------------------------------------------------
// The victim: a learner active in every service, whose every id the attacker knows

interface Victim extends Person {
  secrets: string[];
  cardId: string;
  dueItemId: string;
  reviewId: string;
  tagId: string;
  orgId: string;
  teamId: string;
  deckId: string;
  assignmentId: string;
  fileId: string;
  checkoutSessionId: string;
}

let victim: Victim;
let attacker: Person;
let attackerOrg: Json;
let attackerTag: Json;

async function victimActiveEverywhere(): Promise<Victim> {
  const me = await person('victim');
  const secret = `victim-secret-${suffix()}`;
  const tag = await call(me, 'cards.createTag', { name: `${secret}-tag` });
  const card = await call(me, 'cards.create', { front: `${secret} front`, back: `${secret} back`, tagIds: [tag.id] });
  await call(me, 'cards.create', { front: `${secret} second`, back: 'kept', tagIds: [tag.id] });
  const due = await call(me, 'cards.listDue', {});
  const reviewed = due.items[0].id;
  const reviewId = randomUUID();
  await call(me, 'cards.review', { id: reviewed, rating: 'good', reviewId, durationMs: 1200 });
  const dueItemId = due.items[1].id;
  const org = await organization(me, 'create', { name: `${secret} school`, slug: `victim-${suffix()}` });
  const team = await organization(me, 'create-team', { name: `${secret} team`, organizationId: org.id });
  const deck = await call(me, 'orgs.publishDeck', { organizationId: org.id, name: `${secret} deck`, tagId: tag.id });
  const assignment = await call(me, 'orgs.createAssignment', {
    organizationId: org.id,
    deckId: deck.id,
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    targetKind: 'cards_learned',
    targetValue: 2,
  });
  const form = new FormData();
  form.append(
    'file',
    new File([`${secret} notes about the cell and its parts, long enough`], 'n.md', { type: 'text/markdown' }),
  );
  const uploaded = await fetch(`${stack.url}/api/trpc/ai.upload`, {
    method: 'POST',
    headers: { origin: stack.url, cookie: me.cookie },
    body: form,
  });
  const fileId = ((await uploaded.json()) as Json).result.data.fileId;
  const { url } = await call(me, 'billing.checkout', { plan: 'plus', interval: 'month', currency: 'usd' });
  const checkoutSessionId = /cs_test_\w+/.exec(url)?.[0] ?? '';
  return {
    ...me,
    secrets: [secret, me.email, card.id, tag.id, deck.id, assignment.id, fileId, checkoutSessionId, reviewId],
    cardId: card.id,
    dueItemId,
    reviewId,
    tagId: tag.id,
    orgId: org.id,
    teamId: team.id,
    deckId: deck.id,
    assignmentId: assignment.id,
    fileId,
    checkoutSessionId,
  };
}

/** Everything the victim sees of their own data; an attack that changed any of it changed their data. */
async function victimsView(): Promise<Json> {
  const views: [string, unknown][] = [
    ['cards.list', { pageSize: 100, archived: false }],
    ['cards.list', { pageSize: 100, archived: true }],
    ['cards.listTags', { pageSize: 100 }],
    ['cards.listDue', {}],
    ['cards.reviewMetrics', undefined],
    ['settings.get', undefined],
    ['orgs.decks', { organizationId: victim.orgId }],
    ['orgs.assignments', { organizationId: victim.orgId }],
    ['orgs.progress', { organizationId: victim.orgId }],
    ['billing.customer', undefined],
  ];
  const seen: Json[] = [];
  for (const [path, input] of views) seen.push((await send(victim, path, input)).body);
  return seen;
}

// ---------------------------------------------------------------------------------------------------------
// 1. Another user's and another organization's ids

/**
 * What the attacker sends to each procedure. A procedure that takes no id acts on the caller's own data
 * only: it is still called, and its answer must hold nothing of the victim's.
 */
const attacks = (): Record<string, unknown[]> => ({
  'ai.upload': [],
  'ai.generate': [{ fileId: victim.fileId, count: 1 }],
  'billing.plans': [undefined],
  'billing.customer': [undefined],
  'billing.checkout': [],
  'billing.checkoutSession': [{ sessionId: victim.checkoutSessionId }],
  'billing.portal': [],
  'cards.list': [{ tagIds: [victim.tagId] }, { query: 'victim-secret' }],
  'cards.create': [{ front: 'pinned to their tag', back: 'x', tagIds: [victim.tagId] }],
  'cards.createMany': [{ cards: [{ front: 'pinned', back: 'x', tagIds: [victim.tagId] }] }],
  'cards.update': [
    { id: victim.cardId, front: 'pwned' },
    { id: victim.cardId, tagIds: [attackerTag.id] },
  ],
  'cards.archive': [{ id: victim.cardId, archived: true }],
  'cards.delete': [{ id: victim.cardId }],
  'cards.listTags': [{}],
  'cards.createTag': [],
  'cards.renameTag': [{ id: victim.tagId, name: 'pwned' }],
  'cards.deleteTag': [{ id: victim.tagId }],
  'cards.listDue': [{ tagIds: [victim.tagId] }],
  'cards.review': [{ id: victim.dueItemId, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 }],
  'cards.undoReview': [{ reviewId: victim.reviewId }],
  'cards.progressMetrics': [undefined],
  'cards.streak': [undefined],
  'cards.reviewMetrics': [undefined],
  'cards.generationUsage': [undefined],
  'orgs.decks': [{ organizationId: victim.orgId }],
  'orgs.publishDeck': [
    { organizationId: victim.orgId, name: 'planted', tagId: attackerTag.id },
    { organizationId: attackerOrg.id, name: 'stolen', tagId: victim.tagId },
    { organizationId: attackerOrg.id, teamId: victim.teamId, name: 'stolen', tagId: attackerTag.id },
  ],
  'orgs.syncDeck': [{ deckId: victim.deckId }],
  'orgs.deleteDeck': [{ deckId: victim.deckId }],
  'orgs.subscribe': [{ deckId: victim.deckId }],
  'orgs.unsubscribe': [{ deckId: victim.deckId }],
  'orgs.assignments': [{ organizationId: victim.orgId }, undefined],
  'orgs.createAssignment': [
    {
      organizationId: victim.orgId,
      deckId: victim.deckId,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'retention',
      targetValue: 0.9,
    },
    {
      organizationId: attackerOrg.id,
      deckId: victim.deckId,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      targetKind: 'retention',
      targetValue: 0.9,
    },
  ],
  'orgs.deleteAssignment': [{ assignmentId: victim.assignmentId }],
  'orgs.progress': [
    { organizationId: victim.orgId },
    { organizationId: victim.orgId, assignmentId: victim.assignmentId },
    { organizationId: attackerOrg.id, assignmentId: victim.assignmentId },
  ],
  'settings.get': [undefined],
  'settings.getTimezone': [undefined],
  'settings.update': [],
  'settings.completeOnboarding': [],
});

/** Procedures that only ever act for the caller and take no one else's id: nothing to aim at the victim. */
const OWN_DATA_ONLY = new Set([
  'ai.upload',
  'billing.checkout',
  'billing.portal',
  'cards.createTag',
  'settings.update',
  'settings.completeOnboarding',
]);

const leaks = (body: unknown) => victim.secrets.filter((secret) => secret && JSON.stringify(body).includes(secret));

describe('every procedure, called with another user’s and another organization’s ids', () => {
  it('has an attack for every procedure of the router, or a reason it takes no one else’s id', () => {
    const table = attacks();
    for (const { path } of procedures()) {
      const aimed = (table[path] ?? []).length > 0;
      expect(aimed || OWN_DATA_ONLY.has(path), `no attack for ${path}`).toBe(true);
      expect(path in table, `${path} is missing from the table`).toBe(true);
    }
  });

  it('never succeeds: writes are refused, reads answer nothing of the victim’s, and the victim’s data is unchanged', async () => {
    const before = await victimsView();
    const outcomes: string[] = [];
    for (const [path, inputs] of Object.entries(attacks())) {
      for (const input of inputs) {
        const answer = await send(attacker, path, input);
        const what = `${path} ${JSON.stringify(input) ?? ''}`;
        if (answer.status >= 500) outcomes.push(`${what}: answered ${answer.status}`);
        else if (leaks(answer.body).length > 0) outcomes.push(`${what}: leaked ${leaks(answer.body).join(', ')}`);
        else if (typeOf(path) === 'mutation' && answer.status === 200) outcomes.push(`${what}: succeeded`);
      }
    }
    expect(outcomes).toEqual([]);
    expect(await victimsView()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 2. Every gRPC method without a valid internal token

const SERVICES: [string, ServiceDefinition, 'identity' | 'organizations' | 'cards' | 'billing' | 'ai'][] = [
  ['identity', IdentityServiceService as unknown as ServiceDefinition, 'identity'],
  ['organizations', OrganizationsServiceService as unknown as ServiceDefinition, 'organizations'],
  ['cards', CardsServiceService as unknown as ServiceDefinition, 'cards'],
  ['cards', ReviewServiceService as unknown as ServiceDefinition, 'cards'],
  ['cards', MetricsServiceService as unknown as ServiceDefinition, 'cards'],
  ['cards', SettingsServiceService as unknown as ServiceDefinition, 'cards'],
  ['billing', BillingServiceService as unknown as ServiceDefinition, 'billing'],
  ['ai', AiServiceService as unknown as ServiceDefinition, 'ai'],
];

/** The gRPC status of one call of `method` with `token` (none when undefined). */
function grpcStatus(port: number, method: ServiceDefinition[string], token: string | undefined): Promise<status> {
  const client = new Client(`127.0.0.1:${port}`, credentials.createInsecure());
  const metadata = new Metadata();
  if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
  const request = method.requestDeserialize(Buffer.alloc(0));
  const deadline = Date.now() + 5_000;
  return new Promise<status>((resolve) => {
    const done = (code: status) => {
      client.close();
      resolve(code);
    };
    if (method.responseStream) {
      const stream = client.makeServerStreamRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        metadata,
        { deadline },
      );
      stream.on('data', () => {});
      stream.on('error', (error: { code: status }) => done(error.code));
      stream.on('end', () => done(status.OK));
    } else {
      client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        request,
        metadata,
        { deadline },
        (error) => done(error ? (error.code as status) : status.OK),
      );
    }
  });
}

describe('every gRPC method of every service', () => {
  it('refuses a call without a token, and with a forged, expired, wrong-audience or unsigned one', async () => {
    const { secrets, ports } = stack.settings;
    const privateJwk = JSON.parse(secrets.INTERNAL_TOKEN_PRIVATE_KEY);
    const realKey = await importJWK(privateJwk, 'EdDSA');
    // Another key under the gateway's key id: what someone without the gateway's private key can sign.
    const forger = JSON.parse((await generateInternalKeys(privateJwk.kid)).privateJwk);
    const forgedKey = await importJWK(forger, 'EdDSA');
    const signer = await createInternalTokenSigner(secrets.INTERNAL_TOKEN_PRIVATE_KEY);
    const claims = { kind: 'user', sid: 'session', role: 'admin', org: null };
    const token = (key: typeof realKey, audience: string, issuedAt: number, expires: number) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: privateJwk.kid })
        .setSubject(victim.id)
        .setIssuer('engram-gateway')
        .setAudience(audience)
        .setJti(randomUUID())
        .setIssuedAt(issuedAt)
        .setExpirationTime(expires)
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    const unsigned = (audience: string) =>
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(
        JSON.stringify({ ...claims, sub: victim.id, iss: 'engram-gateway', aud: audience, iat: now, exp: now + 60 }),
      ).toString('base64url')}.`;

    const accepted: string[] = [];
    let methods = 0;
    for (const [audience, definition, component] of SERVICES) {
      const port = ports.grpc[component];
      const otherAudience = audience === 'cards' ? 'billing' : 'cards';
      const badTokens: [string, string | undefined][] = [
        ['no token', undefined],
        ['a garbage token', 'not-a-jwt'],
        ['a forged token', await token(forgedKey, audience, now, now + 60)],
        ['an expired token', await token(realKey, audience, now - 600, now - 300)],
        ['a token issued far in the future', await token(realKey, audience, now + 3600, now + 3660)],
        [
          'a token for another service',
          await signer.sign(
            { userId: victim.id, sessionId: 's', role: 'user', activeOrganizationId: null },
            otherAudience,
          ),
        ],
        ['an unsigned token', unsigned(audience)],
      ];
      for (const method of Object.values(definition)) {
        methods += 1;
        for (const [what, bad] of badTokens) {
          const code = await grpcStatus(port, method, bad);
          if (code !== status.UNAUTHENTICATED) accepted.push(`${method.path} with ${what}: status ${code}`);
        }
      }
    }
    expect(methods).toBeGreaterThan(30);
    expect(accepted).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 3. Writes sent from another site, and 4. a session that has ended

const CROSS_SITE: [string, Record<string, string>][] = [
  ['a foreign Origin', { origin: 'https://evil.example' }],
  ['no Origin but Sec-Fetch-Site: cross-site', { origin: '', 'sec-fetch-site': 'cross-site' }],
  ['no Origin but a foreign Referer', { origin: '', referer: 'https://evil.example/page' }],
];

describe('a write sent from another site with the victim’s cookie', () => {
  it('is refused for every mutation and every account endpoint, and changes nothing', async () => {
    const before = await victimsView();
    const allowed: string[] = [];
    const mutations = procedures().filter((p) => p.type === 'mutation');
    for (const [what, headers] of CROSS_SITE) {
      for (const { path } of mutations) {
        const input = attacks()[path]?.[0] ?? {};
        const answer = await send(victim, path, input, headers);
        if (answer.status !== 403) allowed.push(`${path} with ${what}: ${answer.status}`);
      }
      for (const path of ['update-user', 'delete-user', 'organization/create', 'api-key/create', 'change-email']) {
        const response = await fetch(`${stack.url}/api/auth/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', cookie: victim.cookie, ...headers },
          body: JSON.stringify({ name: 'pwned', slug: `pwned-${suffix()}`, newEmail: 'pwned@example.com' }),
        });
        if (response.status !== 403) allowed.push(`/api/auth/${path} with ${what}: ${response.status}`);
      }
    }
    expect(allowed).toEqual([]);
    expect(await victimsView()).toEqual(before);
  });
});

describe('a session that was signed out', () => {
  it('is refused by every procedure that needs a user', async () => {
    const leaver = await person('leaver');
    const signedOut = await fetch(`${stack.url}/api/auth/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.url, cookie: leaver.cookie },
      body: '{}',
    });
    expect(signedOut.status).toBe(200);
    const served: string[] = [];
    for (const { path } of procedures()) {
      if (path === 'billing.plans') continue; // the catalogue is public
      const answer = await send(leaver, path, attacks()[path]?.[0] ?? {});
      if (answer.status !== 401) served.push(`${path}: ${answer.status}`);
    }
    expect(served).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 5. Fuzzed input

/** Values a careless or hostile client sends where a field is expected. */
const hostile = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '../../etc/passwd',
    "' OR 1=1 --",
    '{{c0::}}',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
    'x'.repeat(20_000),
    -1,
    0,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    -0,
    true,
    null,
    [],
    {},
  ),
);

/** A well-formed input of each procedure, from which the fuzzer replaces one field at a time. */
const wellFormed = (): Record<string, Record<string, unknown>> => ({
  'ai.generate': { notes: 'The mitochondrion makes energy for the cell in many steps.', count: 1 },
  'billing.checkout': { plan: 'plus', interval: 'month', currency: 'eur' },
  'billing.checkoutSession': { sessionId: 'cs_test_nothing' },
  'cards.list': { pageSize: 10, archived: false, cursor: null },
  'cards.create': { front: 'fuzz front', back: 'fuzz back', type: 'basic' },
  'cards.createMany': { cards: [{ front: 'a', back: 'b' }] },
  'cards.update': { id: randomUUID(), front: 'changed' },
  'cards.archive': { id: randomUUID(), archived: true },
  'cards.delete': { id: randomUUID() },
  'cards.listTags': { pageSize: 10 },
  'cards.createTag': { name: 'fuzzed' },
  'cards.renameTag': { id: randomUUID(), name: 'renamed' },
  'cards.deleteTag': { id: randomUUID() },
  'cards.listDue': { tagIds: [] },
  'cards.review': { id: randomUUID(), rating: 'good', reviewId: randomUUID(), durationMs: 100 },
  'cards.undoReview': { reviewId: randomUUID() },
  'orgs.decks': { organizationId: 'org' },
  'orgs.publishDeck': { organizationId: 'org', name: 'deck', tagId: 'tag' },
  'orgs.syncDeck': { deckId: 'deck' },
  'orgs.deleteDeck': { deckId: 'deck' },
  'orgs.subscribe': { deckId: 'deck' },
  'orgs.unsubscribe': { deckId: 'deck' },
  'orgs.assignments': { organizationId: 'org' },
  'orgs.createAssignment': {
    organizationId: 'org',
    deckId: 'deck',
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    targetKind: 'retention',
    targetValue: 0.9,
  },
  'orgs.deleteAssignment': { assignmentId: 'a' },
  'orgs.progress': { organizationId: 'org' },
  'settings.update': { dailyGoal: 20 },
  'settings.completeOnboarding': { timezone: 'Europe/Lisbon' },
});

/** An input for `path`: anything at all, or a well-formed one with one field replaced. */
const fuzzedInput = (path: string) => {
  const base = wellFormed()[path];
  if (!base) return fc.oneof(fc.constant(undefined), hostile);
  return fc.oneof(
    hostile,
    fc
      .tuple(fc.constantFrom(...Object.keys(base), 'unexpected'), hostile)
      .map(([key, value]) => ({ ...base, [key]: value })),
  );
};

/** The fuzzer's own data as it sees it: a refused call must leave it as it was. */
async function ownView(who: Person): Promise<string> {
  const paths = ['cards.list', 'cards.listTags', 'settings.get', 'cards.listDue', 'orgs.assignments'];
  const inputs = { 0: { pageSize: 100, archived: false, cursor: null }, 1: { pageSize: 100 } };
  const response = await fetch(
    `${stack.url}/api/trpc/${paths.join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`,
    { headers: { cookie: who.cookie } },
  );
  return response.text();
}

describe('fuzzed input to every procedure', () => {
  it('never answers 5xx, and a refused call changes nothing', async () => {
    const fuzzer = await person('fuzzer');
    await call(fuzzer, 'cards.create', { front: 'mine', back: 'kept' });
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    for (const { path } of procedures()) {
      if (path === 'ai.upload') continue; // its body is a file: fuzzed below
      await fc.assert(
        fc.asyncProperty(fuzzedInput(path), async (input) => {
          const before = await ownView(fuzzer);
          const answer = await send(fuzzer, path, input);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const what = `${path} ${JSON.stringify(input)?.slice(0, 200)}`;
          if (answer.status >= 500)
            problems.push(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
          if (answer.status >= 400 && answer.status < 500 && (await ownView(fuzzer)) !== before)
            problems.push(`${what}: refused with ${answer.status}, yet changed the user's data`);
        }),
        { numRuns: 12, seed: 24 },
      );
    }
    for (const body of [
      randomBytes(512),
      '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\r\n--x--',
      'not a form',
    ]) {
      const response = await fetch(`${stack.url}/api/trpc/ai.upload`, {
        method: 'POST',
        headers: { origin: stack.url, cookie: fuzzer.cookie, 'content-type': 'multipart/form-data; boundary=x' },
        body,
      });
      if (response.status >= 500) problems.push(`ai.upload with a broken form: ${response.status}`);
    }
    expect(problems).toEqual([]);
    // The inputs reached the procedures: most were refused as invalid, some went through.
    expect(statuses.get(400)).toBeGreaterThan(100);
    expect(statuses.get(200)).toBeGreaterThan(10);
  }, 300_000);
});

describe('a forwarding header that claims another address', () => {
  // Last in the file: it uses up the address's sign-in limit for the next 10 s.
  it('does not escape the sign-in limit of the address the gateway sees', async () => {
    // Each attempt names another account (no account's own slowing applies) and claims another address;
    // the gateway believes X-Forwarded-For from no one here, so all of them count against one address.
    const attempt = (i: number) =>
      fetch(`${stack.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: stack.url,
          'x-forwarded-for': `203.0.113.${i % 250}`,
          'x-real-ip': `198.51.100.${i % 250}`,
        },
        body: JSON.stringify({ email: `nobody-${i}-${suffix()}@example.com`, password: 'wrong password' }),
      }).then((response) => response.status);
    const statuses: number[] = [];
    // The stack allows 60 sign-ins per address in 10 s (npm start's roomier limit): 80 in quick waves.
    for (let wave = 0; wave < 8; wave += 1) {
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(wave * 10 + i)))));
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
